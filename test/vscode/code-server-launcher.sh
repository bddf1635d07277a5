#!/bin/sh
# The "VS Code executable" for @vscode/test-electron's runTests when no desktop build can be had.
exec node "$(dirname "$0")/../../out/test/vscode/launcher.js" "$@"

// ESLint finds this from the files of this folder (plain `npx eslint .`, editors); `npm run lint` uses the same configuration.
import * as path from 'path';
import lintRules from '../test/support/lintRules.cjs';

export default lintRules.lintConfig(path.resolve(import.meta.dirname, '..'));

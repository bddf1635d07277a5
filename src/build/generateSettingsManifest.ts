/**
 * Writes package.json's settings from the settings table (src/core/settings/settingsManifest.ts), then README's
 * settings table from package.json (test/support/readmeSettings.ts reads the result).
 *   node dist/generateSettingsManifest.js          rewrite package.json
 *   node dist/generateSettingsManifest.js --check  exit 1 and say what differs instead
 */
import * as fs from 'fs';
import * as path from 'path';
import { contributedSettings, restrictedConfigurations, settingWordKeys } from '../core/settings/settingsManifest';

function main(): void {
  const root = path.resolve(__dirname, '..');
  const packagePath = path.join(root, 'package.json');
  const packageJson = JSON.parse(fs.readFileSync(packagePath, 'utf8'));
  const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
  const hasWords = (key: string) => typeof nls[key] === 'string' && nls[key] !== '';
  const missingWords = settingWordKeys(hasWords).filter(key => !hasWords(key));
  if (missingWords.length) {
    console.error(`package.nls.json has no words for: ${missingWords.join(', ')}. Write them there (a description says what the setting does, for people).`);
    process.exit(1);
  }
  const properties = contributedSettings(hasWords);
  const restricted = restrictedConfigurations();
  const before = JSON.stringify([packageJson.contributes.configuration.properties, packageJson.capabilities.untrustedWorkspaces.restrictedConfigurations]);
  const after = JSON.stringify([properties, restricted]);
  if (process.argv.includes('--check')) {
    if (before !== after) {
      console.error("package.json's settings differ from the settings table: run npm run generate:settings");
      process.exit(1);
    }
    console.log(`package.json declares the table's ${Object.keys(properties).length} settings exactly.`);
    return;
  }
  packageJson.contributes.configuration.properties = properties;
  packageJson.capabilities.untrustedWorkspaces.restrictedConfigurations = restricted;
  fs.writeFileSync(packagePath, `${JSON.stringify(packageJson, null, 2)}\n`);
  console.log(before === after ? 'package.json: the settings are up to date' : `package.json: wrote ${Object.keys(properties).length} settings`);
}

main();

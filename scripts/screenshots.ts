import { isEntryPoint } from '../checker/cli/cli.ts';
import { writeScreenshots } from '../checker/report/site/screenshots.ts';
import { defineWritingCommand } from './entry.ts';

/**
 * `npm run screenshots`: takes the README's screenshots of the report page in the system Chromium
 * (generated/site/screenshots/) and stamps them; run it after `npm run verify` and `npm run mutants`.
 */
export const command = {
  script: 'screenshots',
  summary:
    'Takes the screenshots of the report page (generated/site/screenshots/) in Chromium and writes their stamp.',
  options: {},
  notes: ['Chromium: /usr/bin/chromium, or NSMODEL_CHROMIUM; puppeteer never downloads one.'],
} as const;

if (isEntryPoint(import.meta.url)) await defineWritingCommand(command, writeScreenshots);

// @ts-check
/**
 * `npm run verify`: scripts/verify.ts run from a bundle of its modules and packages (checker/cli/bundled.mjs),
 * rebuilt when any of them changed, so the run does not wait for tsx and Node to load some 140 modules and
 * 400 package files one by one. It runs
 * the sources through tsx when no bundle can be had, and for `--random`, whose module verify loads by path.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundle, verifyBundleRequest } from '../checker/cli/bundled.mjs';

/**
 * @typedef {object} VerifyModule
 * @property {(argv: readonly string[]) => Promise<number>} main
 * @property {() => void} collectGarbage
 * @property {(command: string, main: () => Promise<number> | number) => Promise<void>} runCommand
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);

/** @returns {Promise<{ verify: VerifyModule, built: boolean } | undefined>} */
async function bundledVerify() {
  if (argv.includes('--random')) return undefined;
  const bundle = await freshBundle(verifyBundleRequest(root));
  if (bundle === undefined) return undefined;
  // Stack traces name the sources only when they are printed (runCommand, under NSMODEL_DEBUG=1).
  if (process.env.NSMODEL_DEBUG === '1') process.setSourceMapsEnabled(true);
  return { verify: await import(pathToFileURL(bundle.path).href), built: bundle.built };
}

/** @returns {Promise<VerifyModule>} */
async function sourceVerify() {
  const { register } = await import('tsx/esm/api');
  register();
  const { collectGarbage, main } = await import('./verify.ts');
  const { runCommand } = await import('../checker/cli/cli.ts');
  return { collectGarbage, main, runCommand };
}

const bundled = await bundledVerify();
const verify = bundled?.verify ?? (await sourceVerify());
// A start that built the bundle or went through tsx leaves more garbage than loading a kept bundle (a few
// MB); verify collects none before its search, so it is collected here.
if (bundled === undefined || bundled.built) verify.collectGarbage();
await verify.runCommand('verify', () => verify.main(argv));

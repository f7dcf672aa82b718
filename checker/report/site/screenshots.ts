import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { safetyProperties } from '../../../properties/safety.ts';
import { machinesFor } from '../../../variants/variants.ts';
import { scopeByName } from '../../cli/scope-file.ts';
import { check } from '../../judging/check.ts';
import { systemModel } from '../../model/system-model.ts';
import { diagramsFolder } from '../diagram.ts';
import type { Generator } from '../generator.ts';
import { mutantsJsonPath } from '../mutants.ts';
import { findChromium } from '../render.ts';
import { buildReport, writeReport } from '../report.ts';
import { type StampSpec, sourceRoot, stampSources, writeStamp } from '../stamp.ts';
import { buildSite } from './build.ts';

/**
 * The README's screenshots of the report page: the verdict table, the namespace diagram and the
 * counterexample stepper of a seeded fault. `npm run screenshots` takes them in Chromium; another
 * Chromium build draws other pixels, so they are judged by their stamp, never by their bytes.
 */

export const screenshotsFolder = 'generated/site/screenshots';
export const screenshotNames = [
  'verdict.png',
  'diagram-namespace.png',
  'counterexample-last-step.png',
  'counterexample-stepper.png',
] as const;

/** The seeded fault whose counterexample the stepper shows, and the property that catches it. */
export const screenshotFault = { variant: 'create-in-terminating', property: 'no-create-in-terminating' };

/** What the screenshots show: the committed page, and the fault's run with the committed diagrams and mutants table. */
export const screenshotsStamp: StampSpec = {
  file: 'generated/site/screenshots.stamp.json',
  command: 'npm run screenshots',
  entry: 'scripts/screenshots.ts',
  data: [
    'generated/site/index.html',
    'generated/site/mermaid.min.js',
    `${diagramsFolder}/*.mmd`,
    mutantsJsonPath,
  ],
};

/** A report of the seeded fault, with the committed diagrams and mutants, built into `root/generated`. */
export async function faultFixture(projectRoot: string, root: string): Promise<void> {
  await mkdir(join(root, diagramsFolder), { recursive: true });
  for (const name of await readdir(join(projectRoot, diagramsFolder)))
    if (name.endsWith('.mmd'))
      await copyFile(join(projectRoot, diagramsFolder, name), join(root, diagramsFolder, name));
  await copyFile(join(projectRoot, mutantsJsonPath), join(root, mutantsJsonPath));
  const scope = scopeByName('default');
  const machines = machinesFor(screenshotFault.variant, scope);
  if (!machines) throw new Error(`no machines for ${screenshotFault.variant}`);
  const model = systemModel(scope, machines);
  const result = check(
    model,
    safetyProperties.filter((p) => p.id === screenshotFault.property),
    { stopWhenAllViolated: true },
  );
  const context = { model, variant: screenshotFault.variant, outDir: 'generated' };
  await writeReport(root, buildReport(result, context), result, context);
  await buildSite(root, 'generated');
}

/** The system Chromium, headless, with nothing that reaches the network. */
export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: findChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Opens a page from disk and waits until every diagram on it has been drawn (or failed). */
export async function openPage(browser: Browser, path: string): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900, deviceScaleFactor: 1 });
  const requests: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.ready !== undefined, { timeout: 60_000 });
  return { page, requests };
}

/** Waits until the stepper under `selector` has drawn the sequence diagram of step `step`. */
export const renderedStep = (page: Page, selector: string, step: number) =>
  page.waitForFunction(
    (s, want) =>
      document.querySelector(s)?.querySelector('.sequence')?.getAttribute('data-rendered-step') ===
      String(want),
    {},
    selector,
    step,
  );

/** The committed page's two screenshots, from a page already open on it: the verdict table and the namespace diagram. */
export async function shootPage(page: Page, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await page.screenshot({ path: join(outDir, 'verdict.png') });
  await page.$eval('#machine-namespace', (e) => e.scrollIntoView());
  await page.screenshot({ path: join(outDir, 'diagram-namespace.png') });
}

/** The stepper's two screenshots, from the fault's page already open: its last step, then one back. */
export async function shootStepper(page: Page, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const selector = `#ce-${screenshotFault.property}`;
  const steps = Number(await page.$eval(selector, (s) => (s as HTMLElement).dataset.steps));
  const section = await page.$(selector);
  if (!section) throw new Error(`the fault's page has no ${selector}`);
  while (Number(await page.$eval(selector, (s) => (s as HTMLElement).dataset.current)) < steps - 1)
    await page.click(`${selector} .next`);
  await renderedStep(page, selector, steps - 1);
  await section.screenshot({ path: join(outDir, 'counterexample-last-step.png') });
  await page.click(`${selector} .prev`);
  await renderedStep(page, selector, steps - 2);
  await section.screenshot({ path: join(outDir, 'counterexample-stepper.png') });
}

/** `npm run screenshots`: takes the screenshots under `rootDir` and stamps them; returns the paths written. */
export async function writeScreenshots(rootDir: string): Promise<string[]> {
  const sources = stampSources(sourceRoot, screenshotsStamp);
  const scratch = await mkdtemp(join(tmpdir(), 'nsmodel-screenshots-'));
  const browser = await launchChromium();
  try {
    await faultFixture(rootDir, scratch);
    const outDir = join(rootDir, screenshotsFolder);
    const committed = await openPage(browser, join(rootDir, 'generated', 'site', 'index.html'));
    await shootPage(committed.page, outDir);
    const fault = await openPage(browser, join(scratch, 'generated', 'site', 'index.html'));
    await shootStepper(fault.page, outDir);
  } finally {
    await browser.close();
    await rm(scratch, { recursive: true, force: true });
  }
  // The digests say these are the PNGs this run drew; another Chromium draws others, with a stamp of its own.
  const outputs = screenshotNames.map((name) => posix.join(screenshotsFolder, name));
  return [...outputs, await writeStamp(rootDir, screenshotsStamp, outputs, { sources })];
}

/** Judged by the stamp alone, by the quick and the full check alike. */
export const screenshotsGenerator: Generator = {
  name: 'screenshots',
  owns: [screenshotsFolder, screenshotsStamp.file],
  stamp: screenshotsStamp,
  stampOnly: true,
  generate: writeScreenshots,
};

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagramsFolder } from '../diagram.ts';
import { buildSite } from './build.ts';
import {
  faultFixture,
  launchChromium,
  openPage,
  renderedStep,
  screenshotFault,
  screenshotNames,
  shootPage,
  shootStepper,
} from './screenshots.ts';

/**
 * The report in a real browser: the system Chromium opens the page from disk (file://, no server),
 * every machine diagram must render without a Mermaid error, and one counterexample of a seeded fault
 * is stepped through. Everything is written to a temporary folder: the committed screenshots are
 * `npm run screenshots`'s, so a test run never changes a tracked file.
 */

const projectRoot = process.cwd();
const property = screenshotFault.property;

let scratch: string;
let browser: Browser;
/** Where the tests' screenshots go: never the committed ones. */
const shots = () => join(scratch, 'screenshots');

async function open(path: string): Promise<Page> {
  const { page, requests } = await openPage(browser, path);
  expect(requests, 'the page must not reach the network').toEqual([]);
  return page;
}

async function diagramStatuses(page: Page): Promise<{ id: string; status: string; svg: boolean }[]> {
  return page.$$eval('.diagram[data-diagram]', (nodes) =>
    nodes.map((n) => ({
      id: (n as HTMLElement).dataset.diagram ?? '',
      status: (n as HTMLElement).dataset.status ?? '',
      svg: n.querySelector('svg') !== null,
    })),
  );
}

const highlighted = (page: Page, selector: string) =>
  page.$eval(selector, (section) => ({
    current: (section as HTMLElement).dataset.current,
    rendered: (section.querySelector('.sequence') as HTMLElement).dataset.renderedStep,
    items: Array.from(section.querySelectorAll('.steps li.current')).map(
      (li) => (li as HTMLElement).dataset.step,
    ),
    yaml: section.querySelector('.state-yaml')?.textContent ?? '',
    changes: Array.from(section.querySelectorAll('.changes li')).map((li) => li.textContent ?? ''),
    rects: section.querySelectorAll('.sequence svg rect').length,
  }));

describe('the HTML report in Chromium', () => {
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'nsmodel-site-'));
    await faultFixture(projectRoot, scratch);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('the committed page draws every machine diagram without a Mermaid error', async () => {
    const page = await open(join(projectRoot, 'generated', 'site', 'index.html'));
    const diagrams = await diagramStatuses(page);
    const committed = (await readdir(join(projectRoot, diagramsFolder))).filter((n) => n.endsWith('.mmd'));
    expect(diagrams.map((d) => `${d.id}.mmd`).sort()).toEqual(committed.sort());
    expect(diagrams.filter((d) => d.status !== 'ok' || !d.svg)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.dataset.ready)).toBe('true');
    // Mermaid draws a failed diagram as an error picture ("Syntax error in text"); none may appear.
    expect(await page.evaluate(() => document.querySelector('main')?.textContent ?? '')).not.toMatch(
      /Syntax error|could not draw/i,
    );
    expect(await page.$$('main svg[aria-roledescription="error"]')).toHaveLength(0);
    await shootPage(page, shots());
    await page.close();
  });

  it('steps through the counterexample of a seeded fault: next and previous move the highlighted step', async () => {
    const page = await open(join(scratch, 'generated', 'site', 'index.html'));
    expect(await page.evaluate(() => document.documentElement.dataset.ready)).toBe('true');
    expect((await diagramStatuses(page)).every((d) => d.status === 'ok' && d.svg)).toBe(true);
    const selector = `#ce-${property}`;
    const steps = Number(await page.$eval(selector, (s) => (s as HTMLElement).dataset.steps));
    expect(steps).toBeGreaterThan(2);
    const start = await highlighted(page, selector);
    expect(start).toMatchObject({ current: '0', rendered: '0', items: ['0'] });
    expect(start.yaml).toMatch(/namespaces:/);
    // The start highlights no step; a later step's box is one more rect in the sequence diagram.
    const rectsAtStart = start.rects;

    await page.click(`${selector} .next`);
    await renderedStep(page, selector, 1);
    const one = await highlighted(page, selector);
    expect(one).toMatchObject({ current: '1', rendered: '1', items: ['1'] });
    expect(one.changes.join('\n')).toMatch(/namespaces\.team-a\.exists: false → true/);
    expect(one.rects).toBeGreaterThan(rectsAtStart);

    for (let i = 2; i < steps; i++) await page.click(`${selector} .next`);
    await renderedStep(page, selector, steps - 1);
    const last = await highlighted(page, selector);
    expect(last.current).toBe(String(steps - 1));
    expect(await page.$eval(`${selector} .next`, (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    expect(await page.$eval(`${selector} .steps li.current`, (li) => li.textContent)).toMatch(/breaks here/);
    expect(last.yaml).toMatch(/phase: Terminating/);

    await page.click(`${selector} .prev`);
    await renderedStep(page, selector, steps - 2);
    expect((await highlighted(page, selector)).items).toEqual([String(steps - 2)]);
    // `npm run screenshots` shoots the same way: from the last step, one back.
    await shootStepper(page, shots());
    expect(await page.$eval(selector, (s) => (s as HTMLElement).dataset.current)).toBe(String(steps - 2));
    await page.close();
  });

  it('took the README screenshots into a temporary folder, each a PNG of the page', async () => {
    const written = await readdir(shots());
    expect(written.sort()).toEqual([...screenshotNames].sort());
    for (const name of written) {
      const png = await readFile(join(shots(), name));
      // The PNG signature, then the IHDR width and height: a real picture, not an empty file.
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(png.readUInt32BE(16)).toBeGreaterThan(100);
      expect(png.readUInt32BE(20)).toBeGreaterThan(100);
    }
  });

  it('reports a diagram Mermaid cannot draw, so the checks above cannot pass by accident', async () => {
    await writeFile(join(scratch, diagramsFolder, 'broken.mmd'), 'stateDiagram-v2\n  a --> : : -->\n');
    await buildSite(scratch, 'generated');
    const page = await open(join(scratch, 'generated', 'site', 'index.html'));
    expect(await page.evaluate(() => document.documentElement.dataset.ready)).toBe('error');
    const broken = (await diagramStatuses(page)).filter((d) => d.status !== 'ok');
    expect(broken.map((d) => d.id)).toEqual(['broken']);
    await page.close();
  });
});

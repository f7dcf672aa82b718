import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { machineCatalog } from '../../../machines/catalog.ts';
import { listTransitions } from '../../../machines/stepper.ts';
import { diagramsFolder, diagramViews, viewHeads, viewTransitions } from '../diagram.ts';
import { buildSite } from './build.ts';
import { faultFixture, launchChromium, openPage, renderedStep } from './screenshots.ts';

/**
 * The report in a real browser: the system Chromium opens the page from disk (file://, no server),
 * every machine diagram must render without a Mermaid error and draw each of its transitions readably,
 * the page must read at phone width and pass axe-core, and one counterexample of a seeded fault is
 * stepped through. Everything is written to a temporary folder: the committed screenshots are
 * `npm run screenshots`'s, so a test run never changes a tracked file.
 */

const projectRoot = process.cwd();
/** Where the tests' screenshots go: a temporary folder, never the committed ones (`npm run screenshots`'s). */
let screenshots: string;
const property = 'no-create-in-terminating';

let scratch: string;
let browser: Browser;
/** The committed page, opened once: drawing every diagram is most of what a page load costs. */
let committedPage: Promise<Page> | undefined;
/**
 * The committed page at desktop width, shared by the tests in order: they read it, and the accessibility
 * test, which narrows it to a phone's width, comes after those that measure it at 1,280 px.
 */
const committedPageOpen = (): Promise<Page> =>
  (committedPage ??= open(join(projectRoot, 'generated', 'site', 'index.html')));

/** The page opened from disk by the screenshots' own opener, which must not reach the network. */
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

/** The tallest a drawn diagram may be, in px at its natural size: one or two screens, read whole. */
const maxDiagramHeight = 2000;

interface DrawnDiagram {
  id: string;
  width: number;
  height: number;
  /** Every line of text Mermaid drew in a label or a node, spaces normalized. */
  lines: string[];
  /** Pairs of edge labels drawn over each other (a hidden transition). */
  overlaps: string[];
}

/** What each diagram drew: its natural size, its text lines, and which edge labels cover another. */
async function drawnDiagrams(page: Page): Promise<DrawnDiagram[]> {
  return page.$$eval('.diagram[data-diagram]', (nodes) =>
    nodes.map((n) => {
      const svg = n.querySelector('svg');
      const box = svg?.viewBox.baseVal;
      const lines = Array.from(n.querySelectorAll('foreignObject')).flatMap((o) =>
        // biome-ignore lint/performance/useDomNodeTextContent: only innerText keeps the label's <br> line breaks
        ((o.firstElementChild as HTMLElement | null)?.innerText ?? '')
          .split('\n')
          .map((line) => line.replace(/\s+/g, ' ').trim())
          .filter((line) => line !== ''),
      );
      const labels = Array.from(n.querySelectorAll('g.edgeLabel'))
        .filter((l) => (l.textContent ?? '').trim() !== '')
        .map((l) => ({ text: (l.textContent ?? '').slice(0, 40), r: l.getBoundingClientRect() }));
      const overlaps: string[] = [];
      labels.forEach((a, i) => {
        for (const b of labels.slice(i + 1)) {
          const apart =
            a.r.right <= b.r.left + 1 ||
            b.r.right <= a.r.left + 1 ||
            a.r.bottom <= b.r.top + 1 ||
            b.r.bottom <= a.r.top + 1;
          if (!apart) overlaps.push(`${a.text} / ${b.text}`);
        }
      });
      return {
        id: (n as HTMLElement).dataset.diagram ?? '',
        width: box?.width ?? 0,
        height: box?.height ?? 0,
        lines,
        overlaps,
      };
    }),
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
    screenshots = join(scratch, 'screenshots');
    await mkdir(screenshots, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('the committed page draws every machine diagram without a Mermaid error', async () => {
    const page = await committedPageOpen();
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
    await page.screenshot({ path: join(screenshots, 'verdict.png') });
    await page.$eval('#machine-namespace', (e) => e.scrollIntoView());
    await page.screenshot({ path: join(screenshots, 'diagram-namespace.png') });
  });

  it('every diagram draws each transition of its machine where it can be read, none taller than 2,000 px', async () => {
    const drawn = new Map((await drawnDiagrams(await committedPageOpen())).map((d) => [d.id, d]));
    const views = diagramViews(machineCatalog);
    const shown = new Map<string, number>();
    for (const view of views) {
      const diagram = drawn.get(view.id);
      expect(diagram, view.id).toBeDefined();
      const lines = diagram?.lines ?? [];
      // Each transition's line must be drawn once for each transition it names.
      const heads = viewHeads(view);
      const missing = [...new Set(heads)].filter(
        (head) => lines.filter((line) => line === head).length < heads.filter((h) => h === head).length,
      );
      expect(missing, `${view.id}: transitions not drawn`).toEqual([]);
      expect(diagram?.overlaps, `${view.id}: labels drawn over each other`).toEqual([]);
      expect(
        lines.filter((line) => line.length > 60),
        `${view.id}: lines longer than 60 characters`,
      ).toEqual([]);
      expect(heads).toHaveLength(viewTransitions(view).length);
      const machine = view.machine.id;
      shown.set(machine, (shown.get(machine) ?? 0) + heads.length);
    }
    for (const entry of machineCatalog)
      expect(shown.get(entry.machine.id), entry.id).toBe(listTransitions(entry.machine).length);
    const tallest = [...drawn.values()].reduce((a, b) => (b.height > a.height ? b : a));
    expect(tallest.height, `${tallest.id} is ${Math.round(tallest.height)} px tall`).toBeLessThanOrEqual(
      maxDiagramHeight,
    );
    expect(tallest.height).toBeGreaterThan(500);
  });

  it('reads on a phone and passes the accessibility check (axe-core) at desktop and phone width', async () => {
    const page = await committedPageOpen();
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    const serious = async () =>
      page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResult> } })
          .axe;
        type AxeResult = { violations: { id: string; impact: string | null; nodes: unknown[] }[] };
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
      });
    expect(await serious(), 'at 1,280 px').toEqual([]);
    await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 1 });
    // Tables and diagrams scroll in their own box: the page itself is no wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await serious(), 'at 390 px').toEqual([]);
    expect(await page.$$eval('th:not([scope])', (cells) => cells.length)).toBe(0);
    expect(await page.$$eval('.stepper .position[aria-live]', (n) => n.length)).toBe(
      await page.$$eval('.stepper', (n) => n.length),
    );
    const unnamed = await page.$$eval('.diagram[data-diagram]', (nodes) =>
      nodes
        .filter((n) => !n.getAttribute('aria-label') || !n.getAttribute('aria-describedby'))
        .map((n) => (n as HTMLElement).dataset.diagram),
    );
    expect(unnamed, 'diagrams without a name or a text alternative').toEqual([]);
    await page.screenshot({ path: join(screenshots, 'phone.png') });
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
    await (await page.$(selector))?.screenshot({ path: join(screenshots, 'counterexample-last-step.png') });

    await page.click(`${selector} .prev`);
    await renderedStep(page, selector, steps - 2);
    expect((await highlighted(page, selector)).items).toEqual([String(steps - 2)]);
    await (await page.$(selector))?.screenshot({ path: join(screenshots, 'counterexample-stepper.png') });
    await page.close();
  });

  it('reports a diagram Mermaid cannot draw, so the checks above cannot pass by accident', async () => {
    // One diagram drawn beside the broken one is enough to tell them apart; the page draws no other.
    const folder = join(scratch, diagramsFolder);
    const kept = 'namespace.mmd';
    for (const name of await readdir(folder))
      if (name.endsWith('.mmd') && name !== kept) await rm(join(folder, name));
    await writeFile(join(folder, 'broken.mmd'), 'stateDiagram-v2\n  a --> : : -->\n');
    await buildSite(scratch, 'generated');
    const page = await open(join(scratch, 'generated', 'site', 'index.html'));
    expect(await page.evaluate(() => document.documentElement.dataset.ready)).toBe('error');
    const statuses = await diagramStatuses(page);
    expect(statuses.map((d) => d.id).sort()).toEqual(['broken', 'namespace']);
    const broken = statuses.filter((d) => d.status !== 'ok');
    expect(broken.map((d) => d.id)).toEqual(['broken']);
    await page.close();
  });
});

import { traceabilityGenerator } from '../judging/traceability.ts';
import { alternativesGenerator } from './alternatives.ts';
import { diagramsFolder, fixtureDiagramsFolder, machinesDocPath } from './diagram.ts';
import type { Generator } from './generator.ts';
import { mutantsGenerator } from './mutants.ts';
import { schemasGenerator } from './output-schemas.ts';
import { diagramSets, generateDiagrams, rendererFingerprint, svgJobs, svgProblem } from './render.ts';
import { reportGenerator } from './report.ts';
import { scenariosDocGenerator } from './scenario-docs.ts';
import { siteGenerator } from './site/build.ts';
import { screenshotsGenerator } from './site/screenshots.ts';

const diagrams: Generator = {
  name: 'diagrams',
  owns: [diagramsFolder, machinesDocPath, fixtureDiagramsFolder],
  generate: (rootDir) => generateDiagrams(rootDir, diagramSets),
  // SVG bytes depend on the Chromium and fonts that drew them: judge each by the source its stamp names.
  async generateForCheck(rootDir) {
    const all = await generateDiagrams(rootDir, diagramSets, { skipSvgs: true });
    const judged = svgJobs(diagramSets).map((job) => job.path);
    return { written: all.filter((path) => !judged.includes(path)), judged };
  },
  judge(path, committed) {
    const job = svgJobs(diagramSets).find((candidate) => candidate.path === path);
    return job ? svgProblem(job, committed, rendererFingerprint()) : 'not drawn by any diagram';
  },
};

/** Every generator, in the order `npm run check:generated` runs them. */
export const generators: Generator[] = [
  diagrams,
  schemasGenerator,
  traceabilityGenerator,
  reportGenerator,
  scenariosDocGenerator,
  mutantsGenerator,
  alternativesGenerator,
  // The page is made of what the generators above wrote, and the screenshots of the page.
  siteGenerator,
  screenshotsGenerator,
];

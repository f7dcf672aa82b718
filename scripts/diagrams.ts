import { ChromiumNotFoundError, diagramSets, generateDiagrams } from '../checker/render.ts';

/**
 * `npm run diagrams [-- --force]`: regenerates every machine's Mermaid source and SVG and
 * docs/machines.md. An SVG whose source and renderer did not change is kept unless --force is given.
 */
const force = process.argv.includes('--force');
const started = performance.now();
try {
  const written = await generateDiagrams(process.cwd(), diagramSets, {
    force,
    log: (line) => console.log(line),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`diagrams: ${written.length} files up to date in ${seconds} s`);
} catch (error) {
  if (error instanceof ChromiumNotFoundError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}

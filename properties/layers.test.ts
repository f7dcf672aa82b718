import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const propertiesDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(propertiesDir, '..');

/**
 * An oracle must not share the code it judges: properties/ reads the state view's types, the scope's
 * declared data and its own files, never the authorizer, admission, timers, configuration or names code.
 */
// design-options.ts reads the scope's declared design options (data), like scope.ts; memo.ts judges nothing;
// bootstrap-rbac.ts holds the bootstrap ClusterRole manifests a scope starts from (data, D-23).
const allowedTargets = [
  'machines/scope.ts',
  'machines/design-options.ts',
  'checker/engine/memo.ts',
  'machines/bootstrap-rbac.ts',
];
/** Imported for their types only (erased at run time): the state view and the Kubernetes object shapes. */
const typeOnlyTargets = ['machines/system.ts', 'machines/k8s-types.ts'];
/** Members of the model that run code under test, or report what it decided; a property must not call them. */
const forbiddenMembers = [
  'pendingToInject',
  'authorizer',
  'callerMayInitialize',
  'changesInitializers',
  'configurationFresh',
  'initializerSpec',
  '.handle(',
  '.perform(',
  '.enabled(',
  '.machines',
  '.step(',
];

/**
 * Where a property reads a verdict of the model in order to judge it (never to decide what to judge):
 * `configuration-copy-refreshed` checks admission's freshness verdict against the documents' age bound.
 * Checked below, so an entry goes once it is no longer needed.
 */
const judgedVerdicts: Record<string, string[]> = {
  'properties/timing.ts': ['configurationFresh'],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each import or re-export of a file: its specifier and whether it is type-only. */
function imports(text: string): { spec: string; typeOnly: boolean }[] {
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?\b([^'"]*?)from\s*['"]([^'"]+)['"]/g))
    found.push({ spec: m[4], typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ spec: m[1], typeOnly: false });
  return found;
}

function offences(file: string, text: string): string[] {
  const out: string[] = [];
  for (const { spec, typeOnly } of imports(text)) {
    if (!spec.startsWith('.')) {
      out.push(`${file} imports package ${spec}`);
      continue;
    }
    const target = relative(root, resolve(dirname(join(root, file)), spec));
    if (target.startsWith('properties/') || allowedTargets.includes(target)) continue;
    if (typeOnly && typeOnlyTargets.includes(target)) continue;
    out.push(`${file} imports ${typeOnly ? 'types of ' : ''}${target}`);
  }
  for (const member of forbiddenMembers)
    if (text.includes(member) && !(judgedVerdicts[file] ?? []).includes(member))
      out.push(`${file} uses ${member}`);
  return out;
}

describe('properties/ layers', () => {
  it('finds the property sources it judges', () => {
    expect(sources(propertiesDir).map((p) => relative(root, p))).toContain('properties/safety.ts');
  });

  it('imports only the state view types, the scope declarations and its own files', () => {
    const found = sources(propertiesDir).flatMap((path) =>
      offences(relative(root, path), readFileSync(path, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('lists no exemption that is no longer needed', () => {
    const stale = Object.entries(judgedVerdicts).flatMap(([file, members]) => {
      const text = readFileSync(join(root, file), 'utf8');
      return members.filter((m) => !text.includes(m)).map((m) => `${file} no longer uses ${m}`);
    });
    expect(stale).toEqual([]);
  });

  it('sees a forbidden import or call when there is one', () => {
    const bad = [
      "import { validateNamespaceName } from '../machines/names.ts';",
      "import { SystemModel } from '../machines/system.ts';",
      "import type { X } from '../machines/system.ts';",
      'const injected = model.pendingToInject(before);',
    ].join('\n');
    expect(offences('properties/bad.ts', bad)).toEqual([
      'properties/bad.ts imports machines/names.ts',
      'properties/bad.ts imports machines/system.ts',
      'properties/bad.ts uses pendingToInject',
    ]);
  });
});

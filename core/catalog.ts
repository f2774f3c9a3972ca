import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Capability } from './registry.ts';
import type { PromptDef, ResourceDef } from './mcp-registry.ts';

export interface Catalog {
  capabilities: Capability[];
  resources: ResourceDef[];
  prompts: PromptDef[];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * Everything exported from tools/, resources/ and prompts/ that is a definition. Adding a
 * capability is adding a file: nothing else needs to know about it.
 */
export async function loadCatalog(extra: Partial<Catalog> = {}): Promise<Catalog> {
  const catalog: Catalog = { capabilities: [], resources: [], prompts: [] };
  const files = ['tools', 'resources', 'prompts'].flatMap((d) => sourceFiles(path.join(root, d))).sort();
  for (const file of files) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      const kind = (value as { kind?: unknown } | null)?.kind;
      if (kind === 'capability') catalog.capabilities.push(value as Capability);
      else if (kind === 'resource') catalog.resources.push(value as ResourceDef);
      else if (kind === 'prompt') catalog.prompts.push(value as PromptDef);
    }
  }
  catalog.capabilities.push(...(extra.capabilities ?? []));
  catalog.resources.push(...(extra.resources ?? []));
  catalog.prompts.push(...(extra.prompts ?? []));
  const seen = new Set<string>();
  for (const c of catalog.capabilities) {
    if (seen.has(c.name)) throw new Error(`capability ${c.name} is defined twice`);
    seen.add(c.name);
  }
  catalog.capabilities.sort((a, b) => a.name.localeCompare(b.name));
  return catalog;
}

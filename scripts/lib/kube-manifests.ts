/**
 * Reading Kubernetes manifests (several YAML documents a file) and the one piece of the kubelet's
 * behaviour that CI has to do itself under podman: `$(VAR)` expansion. Shared by scripts/kube-check.ts
 * and the manifests' test (test/meta/kubernetes.test.ts).
 */
import { parseAllDocuments } from 'yaml';

export type Json = Record<string, unknown>;

/** Every document of the text, as plain data; a YAML error (a duplicate key too) throws, naming the source. */
export function parseManifests(text: string, source: string): Json[] {
  const docs: Json[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) throw new Error(`${source}: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as Json | null;
    if (value) docs.push(value);
  }
  return docs;
}

/** `$(VAR)` as the kubelet expands it in args and env values: a known name is replaced, `$$` is one `$`, others stay. */
export function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$(\$|\(([A-Za-z_][A-Za-z0-9_.-]*)\))/g, (whole, inner: string, name?: string) => {
    if (inner === '$') return '$';
    return name !== undefined && name in env ? env[name]! : whole;
  });
}

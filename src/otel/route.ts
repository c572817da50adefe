/**
 * A platform path as a low-cardinality route for span names: ids become `{id}` (a number, a
 * segment of eight or more characters with a digit in it, or a long opaque token), while names such
 * as `v1` or `x402` stay; the host and the query are dropped.
 */
export function routeTemplate(path: string): string {
  const bare = path.replace(/^https?:\/\/[^/]+/i, '').split('?')[0] ?? '';
  return bare
    .split('/')
    .map((segment) => (isId(segment) ? '{id}' : segment))
    .join('/');
}

const isId = (segment: string) =>
  /^\d+$/.test(segment) || (segment.length >= 8 && /\d/.test(segment)) || segment.length > 32;

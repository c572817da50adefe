/**
 * A platform path as a low-cardinality route for span names: ids (any segment with a digit other
 * than a version like `v1`, or a long opaque token) become `{id}`, the query is dropped.
 */
export function routeTemplate(path: string): string {
  const bare = path.replace(/^https?:\/\/[^/]+/i, '').split('?')[0] ?? '';
  return bare
    .split('/')
    .map((segment) =>
      segment === '' || /^v\d+$/i.test(segment) || !(/\d/.test(segment) || segment.length > 32)
        ? segment
        : '{id}',
    )
    .join('/');
}

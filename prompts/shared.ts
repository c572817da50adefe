/**
 * How a prompt tells the model to call a tool: the name in backticks and the arguments as JSON, so
 * the model copies them exactly (and the meta-test can check each name and argument against the
 * catalog). Values in angle brackets are for the model to fill in.
 */
export const call = (tool: string, args: Record<string, unknown>): string =>
  `\`${tool}\` with ${JSON.stringify(args)}`;

/** One user message of numbered steps after an opening line; empty steps are dropped. */
export function steps(opening: string, ...items: (string | false | undefined)[]) {
  const numbered = items.filter((item): item is string => !!item).map((item, i) => `${i + 1}. ${item}`);
  return [{ role: 'user' as const, text: [opening, '', ...numbered].join('\n') }];
}

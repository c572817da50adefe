/**
 * What every view shares: the app side of the MCP Apps bridge (ext-apps' App over postMessage),
 * the host's theme, and the two things a view asks the host for: a tool call and a media read.
 */
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';

export interface ToolResult {
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
  isError?: boolean;
}

export interface View {
  app: App;
  /** The arguments the tool was called with, when the host sent them. */
  input: Record<string, unknown>;
  /** Calls one of this server's tools through the host; an error result is thrown with its text. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** One of the caller's own `orbit://media/` files, read through the host, as a data URL. */
  media(uri: string): Promise<string>;
}

export function startView(
  name: string,
  render: (result: ToolResult, view: View) => void | Promise<void>,
): void {
  const app = new App({ name: `orbit-${name}`, version: '1.0.0' }, {}, { autoResize: true });
  const view: View = {
    app,
    input: {},
    async call(tool, args) {
      const result = await app.callServerTool({ name: tool, arguments: args });
      if (result.isError) throw new Error(textOf(result as ToolResult) || `${tool} failed`);
      return record(result.structuredContent);
    },
    async media(uri) {
      const read = await app.readServerResource({ uri });
      const item = read.contents[0];
      if (!item || !('blob' in item)) throw new Error(`No media at ${uri}`);
      return `data:${item.mimeType ?? 'application/octet-stream'};base64,${item.blob}`;
    },
  };
  app.ontoolinput = (params) => {
    view.input = params.arguments ?? {};
  };
  app.ontoolresult = (result) => {
    Promise.resolve(render(result as ToolResult, view)).catch((error: unknown) => fail(error));
  };
  app.onhostcontextchanged = (context) => theme(context);
  app
    .connect()
    .then(() => theme(app.getHostContext()))
    .catch((error: unknown) => fail(error));
}

function theme(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

function textOf(result: ToolResult): string {
  return (result.content ?? []).map((item) => item.text ?? '').join('\n');
}

function fail(error: unknown): void {
  const main = document.querySelector('main') ?? document.body;
  main.replaceChildren(h('p', { class: 'bad' }, error instanceof Error ? error.message : String(error)));
}

type Child = Node | string | number | false | null | undefined;

/** A DOM element: `h('td', { class: 'num' }, '0.5')`. Text is set as text, never parsed as HTML. */
export function h(
  tag: string,
  attributes: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElement {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes))
    if (value !== undefined) element.setAttribute(key, value);
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
  return element;
}

/** The nodes of a list with its `false` entries (parts not shown) left out. */
export const present = (...nodes: (Node | false)[]): Node[] =>
  nodes.filter((node): node is Node => node !== false);

export const usd = (value: unknown): string =>
  typeof value === 'number'
    ? `$${value < 0.01 && value > 0 ? value.toFixed(4) : value.toFixed(2)}`
    : String(value ?? '');

export const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * A result this view does not draw (a chat without verify, a search that cost nothing): one quiet
 * line, and the error's own words when the call failed. The host shows the result's text anyway.
 */
export function plain(main: HTMLElement, result: ToolResult, why: string): void {
  main.replaceChildren(h('p', { class: 'muted' }, result.isError ? textOf(result).slice(0, 600) : why));
}

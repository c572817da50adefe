/**
 * A test host for MCP Apps views, built on ext-apps' host side (AppBridge): the view runs in a
 * sandboxed iframe under the CSP its resource declares, and every request it makes of the host
 * (tools/call, resources/read) goes to `window.mcp`, which the test wires to a real MCP client.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

interface Shown {
  html: string;
  csp: { resourceDomains?: string[]; connectDomains?: string[] };
  tool: { name: string; inputSchema: { type: 'object' } };
  input: Record<string, unknown>;
  result: Record<string, unknown>;
  theme: 'light' | 'dark';
  width: number;
}

declare global {
  interface Window {
    mcp(method: string, params: unknown): Promise<unknown>;
    showView(shown: Shown): Promise<void>;
  }
}

/** What a host puts around a view: nothing from anywhere but the declared origins. */
function withCsp(html: string, csp: Shown['csp']): string {
  const media = ['data:', 'blob:', ...(csp.resourceDomains ?? [])].join(' ');
  const policy = [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src ${media}`,
    `media-src ${media}`,
    `font-src ${media}`,
    `connect-src ${(csp.connectDomains ?? []).join(' ') || "'none'"}`,
  ].join('; ');
  return html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${policy}">`);
}

window.showView = async (shown) => {
  document.documentElement.style.colorScheme = shown.theme;
  document.body.style.background = shown.theme === 'dark' ? '#111' : '#eee';
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.style.cssText = `width:${shown.width}px;height:200px;border:0;display:block`;
  iframe.srcdoc = withCsp(shown.html, shown.csp);
  const bridge = new AppBridge(
    null,
    { name: 'orbit-view-test-host', version: '1.0.0' },
    { serverTools: {}, serverResources: {} },
    {
      hostContext: {
        theme: shown.theme,
        displayMode: 'inline',
        toolInfo: { tool: { name: shown.tool.name, inputSchema: shown.tool.inputSchema } },
      },
    },
  );
  bridge.oncalltool = (params) => window.mcp('tools/call', params) as never;
  bridge.onreadresource = (params) => window.mcp('resources/read', params) as never;
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${Math.ceil(height)}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  document.body.replaceChildren(iframe);
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  await initialized;
  await bridge.sendToolInput({ arguments: shown.input });
  await bridge.sendToolResult(shown.result as never);
};

import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ToolContext } from '../context.js';
import type { Redactor } from '../secrets.js';
import { matchTemplate, type ResourceDefinition } from './define-resource.js';
import { renderError } from './render.js';

export interface ResourceDeps {
  server: Server;
  resources: readonly ResourceDefinition[];
  redactor: Redactor;
  contextFor(ctx: ServerContext): ToolContext;
  log: ToolContext['log'];
}

/** resources/list, resources/templates/list and resources/read over the resource registry. */
export function registerResources(deps: ResourceDeps): void {
  const { server, resources, redactor } = deps;
  server.setRequestHandler('resources/list', async (_request, ctx) => {
    const listed = [];
    for (const resource of resources) {
      if (!resource.list) continue;
      try {
        for (const item of await resource.list(deps.contextFor(ctx))) {
          listed.push({ ...item, mimeType: resource.mimeType });
        }
      } catch (error) {
        deps.log.debug(`listing ${resource.name} failed`, { error: String(error) });
      }
    }
    return { resources: redactor.value(listed) };
  });
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: resources
      .filter((resource) => resource.uriTemplate.includes('{'))
      .map(({ uriTemplate, name, title, description, mimeType }) => ({
        uriTemplate,
        name,
        title,
        description,
        mimeType,
      })),
  }));
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    for (const resource of resources) {
      const params = matchTemplate(resource.uriTemplate, uri);
      if (!params) continue;
      try {
        const body = await resource.read(params, deps.contextFor(ctx));
        const redacted = 'text' in body ? { ...body, text: redactor.text(body.text) } : body;
        return { contents: [{ uri, mimeType: resource.mimeType, ...redacted }] };
      } catch (error) {
        const rendered = renderError(error, redactor).content[0];
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          rendered?.type === 'text' ? rendered.text : String(error),
        );
      }
    }
    // -32602 with the URI in `data`, as the 2026-07-28 revision asks (and 2025 clients accept).
    throw new ResourceNotFoundError(
      uri,
      `Unknown resource ${uri}; list resource templates to see what exists.`,
    );
  });
}

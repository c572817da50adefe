import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ToolContext } from '../context.js';
import { InputError } from '../errors.js';
import type { Redactor } from '../secrets.js';
import { MAX_RESOURCE_URI_LENGTH, matchTemplate, type ResourceDefinition } from './define-resource.js';
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
    if (uri.length > MAX_RESOURCE_URI_LENGTH) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The resource URI is ${uri.length} characters long; at most ${MAX_RESOURCE_URI_LENGTH} are read. List resources to see the URIs that exist.`,
      );
    }
    for (const resource of resources) {
      const params = matchOrRefuse(resource.uriTemplate, uri);
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

/** A malformed `%` escape is the caller's bad input: -32602, as for any invalid parameter. */
function matchOrRefuse(template: string, uri: string): Record<string, string> | undefined {
  try {
    return matchTemplate(template, uri);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.message} ${error.fix ?? ''}`.trim());
  }
}

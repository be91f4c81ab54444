import { z } from 'zod';
import { APP_VERSION } from '../../../shared/app-version.js';
import { stripRootKeywords } from '../../openapi.js';
import { GRANT_HEADER } from './grant-check.js';
import type { AppRoute } from './router.js';
import { STORYBOARD_SCHEMAS } from './schemas.js';

type JsonSchema = Record<string, unknown>;

const SECURITY: Record<AppRoute['doc']['security'], JsonSchema[]> = {
  grant: [{ appGrant: [] }],
  signed_url: [],
  none: [],
  simulator_token: [{ simulatorToken: [] }],
};

/**
 * storyboard-helper's own OpenAPI 3.1 document (its business interface, not the platform's),
 * generated from the zod schemas its routes parse and answer with. Server: `{business_base_url}`.
 */
export function buildStoryboardOpenApi(routes: readonly AppRoute[], serverUrl: string): JsonSchema {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries(STORYBOARD_SCHEMAS)) {
    registry.add(schema, { id: name });
    names.set(schema, name);
  }
  const generated = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(generated.schemas)) schemas[name] = stripRootKeywords(schema);
  const ref = (schema: z.ZodType): JsonSchema => {
    const name = names.get(schema);
    if (name) return { $ref: `#/components/schemas/${name}` };
    return stripRootKeywords(
      z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema,
    );
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { doc } = route;
    const template = route.path.replace(/\{(\w+)\*\}/g, '{$1}');
    const parameters: JsonSchema[] = [];
    for (const match of route.path.matchAll(/\{(\w+)(\*?)\}/g))
      parameters.push({
        name: match[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
        ...(match[2] ? { description: 'the rest of the path (may contain /)' } : {}),
      });
    for (const q of doc.query ?? [])
      parameters.push({
        name: q.name,
        in: 'query',
        required: false,
        description: q.description,
        schema: { type: 'string' },
      });
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(doc.responses)) {
      if (!response) continue;
      const entry: JsonSchema = { description: response.description };
      if (response.schema) entry.content = { 'application/json': { schema: ref(response.schema) } };
      else if (response.contentType)
        entry.content = { [response.contentType]: { schema: { type: 'string' } } };
      responses[status] = entry;
    }
    const operation: JsonSchema = {
      operationId: doc.operationId,
      summary: doc.summary,
      tags: doc.tags,
      parameters,
      responses,
      security: SECURITY[doc.security],
    };
    if (doc.scope) operation['x-grant-scope'] = doc.scope;
    if (doc.requestBody)
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: ref(doc.requestBody) } },
      };
    paths[template] ??= {};
    const methods =
      route.method === 'ALL' ? ['get', 'post', 'put', 'patch', 'delete'] : [route.method.toLowerCase()];
    for (const method of methods)
      paths[template]![method] =
        methods.length > 1 ? { ...operation, operationId: `${doc.operationId}_${method}` } : operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title:
        "storyboard-helper's business interface (an application on the platform; Framewright local simulator)",
      description:
        "The second fixture application's own interface, served by the simulator as that application's backend: " +
        'boards of panels (prompt and image) of the person a grant names, panel writes, an echo path. ' +
        'Every board call carries a production grant in X-Platform-App-Grant, issued for storyboard-helper with the ' +
        "operation's scope (x-grant-scope) and the request digest: for a JSON body sha256 of its canonical JSON " +
        '(keys sorted, no whitespace); for a body-less GET sha256 of the canonical JSON of {"method","path"} ' +
        '(path relative to this server, with its query string). Paths under /_simulator are simulator-only.',
      version: `1.0.0+framewright.${APP_VERSION}`,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        appGrant: {
          type: 'apiKey',
          in: 'header',
          name: GRANT_HEADER.replace(
            /(^|-)([a-z])/g,
            (_m, dash: string, c: string) => dash + c.toUpperCase(),
          ),
          description: 'A production app grant (POST {session_base_url}/apps/{callerAppKey}/app-grants)',
        },
        simulatorToken: {
          type: 'http',
          scheme: 'bearer',
          description: "The simulator's fixed local test token (or a --token)",
        },
      },
    },
  };
}

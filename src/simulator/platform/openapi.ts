import { z } from 'zod';
import { APP_VERSION } from '../../shared/app-version.js';
import { stripRootKeywords } from '../openapi.js';
import type { PlatformRoute } from './router.js';
import { PLATFORM_SCHEMAS } from './schemas.js';
import { SYNC_SCHEMAS } from './sync-schemas.js';

type JsonSchema = Record<string, unknown>;

const REF = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The OpenAPI 3.1 document of the platform surfaces the simulator serves (runtime, session
 * service), generated from the zod schemas the routes parse with. Its server is
 * `http://host:port/platform`; paths start with `/runtime` or `/session`.
 */
export function buildPlatformOpenApi(routes: readonly PlatformRoute[], serverUrl: string): JsonSchema {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries({ ...PLATFORM_SCHEMAS, ...SYNC_SCHEMAS })) {
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
    if (name) return REF(name);
    return stripRootKeywords(
      z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema,
    );
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const { doc } = route;
    const parameters: JsonSchema[] = [];
    for (const match of route.path.matchAll(/\{(\w+)\}/g))
      parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
    if (doc.query) {
      for (const [name, field] of Object.entries(doc.query.shape)) {
        const schema = field as z.ZodType;
        parameters.push({
          name,
          in: 'query',
          required: !schema.safeParse(undefined).success,
          schema: ref(schema),
        });
      }
    }
    for (const header of doc.headers ?? [])
      parameters.push({
        name: header.name,
        in: 'header',
        required: header.required,
        description: header.description,
        schema: { type: 'string' },
      });
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(doc.responses)) {
      const entry: JsonSchema = { description: response.description };
      if (response.schema) entry.content = { 'application/json': { schema: ref(response.schema) } };
      else if (response.contentType)
        entry.content = { [response.contentType]: { schema: { type: 'string' } } };
      if (response.headers?.length)
        entry.headers = Object.fromEntries(response.headers.map((h) => [h, { schema: { type: 'string' } }]));
      responses[status] = entry;
    }
    const operation: JsonSchema = {
      operationId: doc.operationId,
      summary: doc.summary,
      tags: doc.tags,
      parameters,
      responses,
    };
    if (doc.requestBody)
      operation.requestBody = {
        required: doc.requestBody.required,
        content: { 'application/json': { schema: ref(doc.requestBody.schema) } },
      };
    paths[route.path] ??= {};
    const methods =
      route.method === 'ALL' ? ['get', 'post', 'put', 'patch', 'delete'] : [route.method.toLowerCase()];
    for (const method of methods)
      paths[route.path]![method] =
        methods.length > 1 ? { ...operation, operationId: `${doc.operationId}_${method}` } : operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Application Platform API: runtime and session service (Framewright local simulator)',
      description:
        'Local simulation of the deployed runtime and the session service: same paths and shapes, stable fake data, no billing. ' +
        'Paths under /runtime are {runtime_base_url}; paths under /session are {session_base_url}. ' +
        'Scenario switch: X-Simulator-Scenario header or POST /v1/_simulator/scenario.',
      version: `1.0.0+framewright.${APP_VERSION}`,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: serverUrl }],
    security: [{ applicationCredential: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        applicationCredential: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The platform-managed application credential (simulator: the apps[].appCredential of --json)',
        },
      },
    },
  };
}

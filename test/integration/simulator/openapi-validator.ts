import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import type { Json } from './client.js';

/**
 * Validates response bodies against the simulator's own OpenAPI document: finds the operation
 * by method and path template, takes the schema of the answered status, and checks it with ajv
 * (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
 */
export class OpenApiResponses {
  private readonly ajv: InstanceType<typeof Ajv2020>;
  private readonly templates: { method: string; pattern: RegExp; path: string }[] = [];
  private readonly serverPath: string;
  private readonly validators = new Map<string, ReturnType<InstanceType<typeof Ajv2020>['compile']>>();
  checked = 0;

  constructor(private readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    this.ajv.addSchema({ $id: 'https://simulator.local/openapi.json', components: doc.components });
    this.serverPath = new URL(doc.servers[0].url).pathname;
    for (const [path, methods] of Object.entries<Json>(doc.paths)) {
      const pattern = new RegExp('^' + path.replace(/\{[^}]+\}/g, '[^/]+') + '$');
      for (const method of Object.keys(methods))
        this.templates.push({ method: method.toUpperCase(), pattern, path });
    }
  }

  check(method: string, url: string, status: number, body: unknown): void {
    const pathname = new URL(url).pathname;
    if (!pathname.startsWith(this.serverPath)) return;
    const relative = pathname.slice(this.serverPath.length);
    const template = this.templates.find((t) => t.method === method && t.pattern.test(relative));
    if (!template) return; // simulator-only admin routes are not part of the public document
    const operation = this.doc.paths[template.path][method.toLowerCase()];
    const response = operation.responses[String(status)] ?? operation.responses.default;
    expect(response, `${method} ${template.path} answered undocumented status ${status}`).toBeDefined();
    const schema = response?.content?.['application/json']?.schema;
    if (!schema) return;
    const key = `${method} ${template.path} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const resolved = schema.$ref ? { $ref: 'https://simulator.local/openapi.json' + schema.$ref } : schema;
      validate = this.ajv.compile({
        $id: `https://simulator.local/check/${this.validators.size}`,
        ...resolvedWithBase(resolved),
      });
      this.validators.set(key, validate);
    }
    const ok = validate(body);
    this.checked += 1;
    expect(ok, `${method} ${template.path} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
}

function resolvedWithBase(schema: Json): Json {
  if (schema.$ref) return { $ref: schema.$ref };
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/', '"https://simulator.local/openapi.json#/components/'),
  );
}

import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { iso } from '../../clock.js';
import { sendJson } from '../../http.js';
import { PlatformError } from '../errors.js';
import type { PlatformContext, PlatformRoute } from '../router.js';
import { errorDoc } from '../schemas.js';
import { requireDeveloperSession } from './developer-auth.js';
import { DEVELOPER_COMMON, developerRoute } from './developer-routes.js';
import { SdkCredential } from './developer-schemas.js';
import { sha256Hex } from './developer-store.js';

/** An SDK download token lives 1 hour (the spec says short-lived). */
export const SDK_TOKEN_SECONDS = 3600;
const INDEX_PATH = '/api/v1/appstore/sdk/python/simple';

/** One POSIX tar entry (ustar header and padded content). */
function tarEntry(name: string, content: Buffer): Buffer {
  const header = Buffer.alloc(512);
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0') + '\0';
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o644, 8), 100, 'latin1');
  header.write(octal(0, 8), 108, 'latin1');
  header.write(octal(0, 8), 116, 'latin1');
  header.write(octal(content.length, 12), 124, 'latin1');
  header.write(octal(1767225600, 12), 136, 'latin1'); // fixed mtime: the file is byte-stable
  header.fill(' ', 148, 156);
  header.write('0', 156, 'latin1');
  header.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + ' ', 148, 'latin1');
  const padded = Buffer.alloc(Math.ceil(content.length / 512) * 512);
  content.copy(padded);
  return Buffer.concat([header, padded]);
}

/** A small real sdist (tar.gz) of a package, built once in memory. */
function sdist(
  name: string,
  version: string,
  summary: string,
): { fileName: string; bytes: Buffer; sha256: string } {
  const module = name.replaceAll('-', '_');
  const root = `${module}-${version}`;
  const files: [string, string][] = [
    [`${root}/PKG-INFO`, `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nSummary: ${summary}\n`],
    [
      `${root}/pyproject.toml`,
      `[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "${name}"\nversion = "${version}"\ndescription = "${summary}"\n`,
    ],
    [
      `${root}/${module}/__init__.py`,
      `"""${summary} (local simulator build)."""\n__version__ = "${version}"\n`,
    ],
  ];
  const tar = Buffer.concat([...files.map(([n, c]) => tarEntry(n, Buffer.from(c))), Buffer.alloc(1024)]);
  const bytes = gzipSync(tar, { level: 9 });
  bytes[4] = bytes[5] = bytes[6] = bytes[7] = 0; // no gzip mtime
  return { fileName: `${root}.tar.gz`, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The current stable packages of the private index: the platform CLI and SDK. */
export const SDK_PACKAGES = [
  {
    name: 'platform-app-cli',
    version: '0.1.0',
    ...sdist('platform-app-cli', '0.1.0', 'Platform application CLI'),
  },
  {
    name: 'platform-app-sdk',
    version: '0.1.0',
    ...sdist('platform-app-sdk', '0.1.0', 'Platform application SDK'),
  },
];

async function issueCredential(pc: PlatformContext): Promise<void> {
  requireDeveloperSession(pc, 'obtain SDK credentials');
  const store = pc.state.platform.developer;
  if (!store.sdkIndex.released)
    throw new PlatformError(503, 'SDK_RELEASE_NOT_READY', 'The packages are not yet released.', {
      retryable: true,
      headers: { 'Retry-After': '60' },
    });
  const token = 'fwsdk_' + randomBytes(32).toString('base64url');
  const expiresAtMs = pc.state.clock.nowMs() + SDK_TOKEN_SECONDS * 1000;
  store.saveSdkToken({ tokenHash: sha256Hex(token), expiresAtMs });
  const [cli, sdk] = SDK_PACKAGES;
  sendJson(pc.res, 200, {
    token,
    expiresAt: iso(expiresAtMs),
    indexURL: new URL(pc.state.baseUrl).origin + '/platform' + INDEX_PATH + '/',
    packages: SDK_PACKAGES.map((p) => ({ name: p.name, version: p.version })),
    cliVersion: cli!.version,
    sdkVersion: sdk!.version,
  });
}

/** The index's credential: `Authorization: Bearer <token>` or Basic with the token as password (pip). */
function indexToken(pc: PlatformContext): string | undefined {
  if (pc.bearer) return pc.bearer;
  const basic = /^Basic\s+(\S+)$/i.exec(pc.req.headers.authorization ?? '');
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) || undefined;
}

function authorizeIndex(pc: PlatformContext): void {
  const store = pc.state.platform.developer;
  if (!store.sdkIndex.configured)
    throw new PlatformError(503, 'SDK_INDEX_NOT_CONFIGURED', 'The private package index is not configured.', {
      retryable: true,
      headers: { 'Retry-After': '60' },
    });
  const token = indexToken(pc);
  const record = token ? store.sdkTokens.get(sha256Hex(token)) : undefined;
  if (!record || record.expiresAtMs <= pc.state.clock.nowMs())
    throw new PlatformError(401, 'SDK_TOKEN_INVALID', 'An unexpired SDK download token is required.', {
      headers: { 'WWW-Authenticate': 'Basic realm="platform-sdk", Bearer' },
    });
}

function sendBytes(pc: PlatformContext, type: string, bytes: Buffer): void {
  pc.res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': String(bytes.length),
    'Cache-Control': 'no-store',
  });
  pc.res.end(bytes);
}

const html = (title: string, links: string) =>
  Buffer.from(
    `<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0"><title>${title}</title></head><body>\n${links}</body></html>\n`,
  );

async function rootPage(pc: PlatformContext): Promise<void> {
  authorizeIndex(pc);
  sendBytes(
    pc,
    'text/html; charset=utf-8',
    html('Simple index', SDK_PACKAGES.map((p) => `<a href="${p.name}/">${p.name}</a>\n`).join('')),
  );
}

const packageOf = (pc: PlatformContext) => {
  const wanted = (pc.params.project ?? '').toLowerCase().replace(/[-_.]+/g, '-');
  const pkg = SDK_PACKAGES.find((p) => p.name === wanted);
  if (!pkg) throw new PlatformError(404, 'SDK_PACKAGE_NOT_FOUND', 'No such package in the private index.');
  return pkg;
};

async function projectPage(pc: PlatformContext): Promise<void> {
  authorizeIndex(pc);
  const p = packageOf(pc);
  sendBytes(
    pc,
    'text/html; charset=utf-8',
    html(`Links for ${p.name}`, `<a href="${p.fileName}#sha256=${p.sha256}">${p.fileName}</a>\n`),
  );
}

async function filePage(pc: PlatformContext): Promise<void> {
  authorizeIndex(pc);
  const p = packageOf(pc);
  if (pc.params.fileName !== p.fileName)
    throw new PlatformError(404, 'SDK_PACKAGE_NOT_FOUND', 'No such file in the private index.');
  pc.res.setHeader('Content-Disposition', `attachment; filename="${p.fileName}"`);
  sendBytes(pc, 'application/gzip', p.bytes);
}

const INDEX_ERRORS = {
  401: errorDoc('SDK_TOKEN_INVALID: absent or expired token'),
  404: errorDoc('SDK_PACKAGE_NOT_FOUND'),
  503: errorDoc('SDK_INDEX_NOT_CONFIGURED'),
};
const indexRoute = (
  path: string,
  handler: PlatformRoute['handler'],
  operationId: string,
  summary: string,
  type: string,
): PlatformRoute => ({
  method: 'GET',
  path: INDEX_PATH + path,
  surface: 'developer',
  auth: 'route',
  handler,
  doc: {
    operationId,
    summary: `${summary} (GET or HEAD; SDK token as Bearer or Basic password)`,
    tags: ['sdk'],
    responses: { 200: { description: summary, contentType: type }, ...INDEX_ERRORS },
  },
});

export const sdkRoutes: PlatformRoute[] = [
  developerRoute('POST', '/sdk/python/credentials', issueCredential, {
    operationId: 'issueSdkCredential',
    summary:
      'A short-lived download token of the private Python package index, and the current stable versions',
    tags: ['developer', 'sdk'],
    responses: {
      200: { description: 'SDK credential (the token appears once)', schema: SdkCredential },
      ...DEVELOPER_COMMON,
      503: errorDoc('SDK_RELEASE_NOT_READY or DEVELOPER_SERVICE_UNAVAILABLE'),
    },
  }),
  indexRoute('/', rootPage, 'sdkIndexRoot', 'PEP 503 root page', 'text/html'),
  indexRoute(
    '/{project}/',
    projectPage,
    'sdkIndexProject',
    'PEP 503 project page (links with #sha256=)',
    'text/html',
  ),
  indexRoute('/{project}/{fileName}', filePage, 'sdkIndexFile', 'Package file', 'application/gzip'),
];

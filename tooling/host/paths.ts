import path from 'node:path';

/** The checkout, found from this file whether it runs from tooling/host (ts-jest) or .build/tooling/host (compiled). */
export const REPO_ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}.build${path.sep}`) ? '../../..' : '../..');

export const PACKAGE_NAME = 'n8n-nodes-erp';

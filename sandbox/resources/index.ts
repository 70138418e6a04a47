import { extensionRoutes } from '../extensions';
import type { ExtensionName } from '../extensions/names';
import { Router } from '../router';
import { contactRoutes } from './contacts';
import type { ApiHandler } from './context';
import { employeeRoutes } from './employees';
import { invoiceRoutes } from './invoices';
import { productRoutes } from './products';

/** Every /api/v1 route, the document's and those of the extensions named; paths are relative to /api/v1. */
export function apiRouter(extensions: readonly ExtensionName[] = []): Router<ApiHandler> {
	const router = new Router<ApiHandler>();
	contactRoutes(router);
	invoiceRoutes(router);
	productRoutes(router);
	employeeRoutes(router);
	extensionRoutes(router, extensions);
	return router;
}

import { Router } from '../router';
import { contactRoutes } from './contacts';
import type { ApiHandler } from './context';
import { employeeRoutes } from './employees';
import { invoiceRoutes } from './invoices';
import { productRoutes } from './products';

/** Every /api/v1 route; paths are relative to /api/v1. */
export function apiRouter(): Router<ApiHandler> {
	const router = new Router<ApiHandler>();
	contactRoutes(router);
	invoiceRoutes(router);
	productRoutes(router);
	employeeRoutes(router);
	return router;
}

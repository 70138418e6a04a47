import { resourceDescription } from '../common/operationOptions';
import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as markPaid from './markPaid.operation';
import * as send from './send.operation';

export const operations: ResourceModule<'invoice'> = { create, get, getAll, markPaid, send };

export const description = resourceDescription('invoice', operations, 'create');

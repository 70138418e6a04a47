import { resourceDescription } from '../common/operationOptions';
import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getStock from './getStock.operation';
import * as update from './update.operation';

export const operations: ResourceModule<'product'> = { create, get, getAll, getStock, update };

export const description = resourceDescription('product', operations, 'create');

import type { ResourceModule } from '../types';
import { resourceDescription } from '../common/operationOptions';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const operations: ResourceModule<'contact'> = { create, delete: del, get, getAll, update };

export const description = resourceDescription('contact', operations, 'create');

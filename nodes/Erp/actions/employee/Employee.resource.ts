import { resourceDescription } from '../common/operationOptions';
import type { ResourceModule } from '../types';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getPayroll from './getPayroll.operation';

export const operations: ResourceModule<'employee'> = { create, get, getAll, getPayroll };

export const description = resourceDescription('employee', operations, 'create');

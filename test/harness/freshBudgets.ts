// The ERP budgets are shared by every run in a process (nodes/Erp/transport/sharedBudget.ts): in one test file
// they would carry a 429 wait or a learnt pace from one test into the next. Each test starts with none.
import { processBudgets } from '../../nodes/Erp/transport/sharedBudget';

beforeEach(() => processBudgets().clear());

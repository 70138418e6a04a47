/**
 * Regenerates the generated blocks of each results document from its JSON, without running a suite:
 * docs/compatibility.md, docs/reliability.md and docs/queue-mode.md.
 * `npm run docs:regenerate`
 */
import { e2eReport } from '../e2e/setup/results';
import { regenerateDoc } from '../../tooling/host/results';
import { queueReport } from '../queue/report/markdown';
import { reliabilityReport } from '../reliability/report/markdown';

regenerateDoc(e2eReport);
regenerateDoc(reliabilityReport);
regenerateDoc(queueReport);

import type { Circus } from '@jest/types';
import NodeEnvironment from 'jest-environment-node';

import { screenshotFile, type WithEditorPage } from '../support/session';

function fullName(test: Circus.TestEntry): string {
	const names: string[] = [test.name];
	for (let block: Circus.DescribeBlock | undefined = test.parent; block && block.name !== 'ROOT_DESCRIBE_BLOCK'; block = block.parent) names.unshift(block.name);
	return names.join(' ');
}

/** Node's test environment, plus a screenshot of the page when a test fails (assertion or timeout), named after the test, taken before afterEach/afterAll close anything. */
export default class ScreenshotOnFailureEnvironment extends NodeEnvironment {
	async handleTestEvent(event: Circus.Event): Promise<void> {
		if (event.name !== 'test_fn_failure') return;
		const page = (this.global as WithEditorPage).editorPage;
		if (!page || page.isClosed()) return;
		const file = screenshotFile(fullName(event.test));
		await page.screenshot({ path: file, timeout: 10_000 }).then(
			() => process.stderr.write(`[editor] screenshot of the failure: ${file}\n`),
			(error: Error) => process.stderr.write(`[editor] no screenshot of the failure: ${error.message}\n`),
		);
	}
}

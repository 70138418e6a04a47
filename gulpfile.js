const path = require('path');
const { src, dest, task } = require('gulp');

// tsc emits the JavaScript and the codex (*.node.json, in tsconfig.json's include, as n8n's template has it);
// the icons must sit beside them in dist. n8n-node build copies the same files (scripts/n8n-node.mjs compares).
function copyAssets() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest(path.resolve('dist')),
	);
}

task('build:assets', copyAssets);

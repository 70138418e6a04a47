const path = require('path');
const { src, dest, task } = require('gulp');

// tsc emits only JavaScript: the icons and the codex (*.node.json) files must sit beside it in dist.
function copyAssets() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest(path.resolve('dist')),
	);
}

task('build:assets', copyAssets);

const { src, dest } = require('gulp');

// tsc compiles the TypeScript; icons are copied beside it so `file:` icon paths resolve in dist/.
function buildIcons() {
	return src(['icons/**/*.svg', 'nodes/**/*.svg', 'credentials/**/*.svg'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;

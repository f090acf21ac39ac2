// Mirrors n8n's community-node lint (the @n8n/node-cli config plus the verification scanner):
// @n8n/eslint-plugin-community-nodes `recommended` and eslint-plugin-n8n-nodes-base's community,
// credentials and nodes rulesets, applied to what the scanner reads (package.json, nodes/, credentials/).
// Dev-only code (sandbox, tests, scripts, benchmarks) gets the generic TypeScript/JS rules.
import eslint from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const shipped = ['package.json', 'nodes/**/*.ts', 'credentials/**/*.ts'];

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.runtime/**', 'coverage/**', 'test-artifacts/**'] },
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: { 'prefer-spread': 'off' },
	},
	{
		files: ['**/*.js', '**/*.mjs'],
		extends: [eslint.configs.recommended],
		languageOptions: {
			sourceType: 'commonjs',
			globals: {
				require: 'readonly',
				module: 'writable',
				exports: 'writable',
				process: 'readonly',
				console: 'readonly',
				Buffer: 'readonly',
				__dirname: 'readonly',
				__filename: 'readonly',
				URL: 'readonly',
				setTimeout: 'readonly',
				clearTimeout: 'readonly',
				setImmediate: 'readonly',
				setInterval: 'readonly',
				clearInterval: 'readonly',
				URLSearchParams: 'readonly',
				fetch: 'readonly',
				AbortController: 'readonly',
				TextEncoder: 'readonly',
				performance: 'readonly',
				structuredClone: 'readonly',
			},
		},
	},
	{ files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
	{
		files: ['test/**/*.ts', 'bench/**/*.ts'],
		languageOptions: {
			globals: {
				jest: 'readonly',
				describe: 'readonly',
				it: 'readonly',
				test: 'readonly',
				expect: 'readonly',
				beforeAll: 'readonly',
				afterAll: 'readonly',
				beforeEach: 'readonly',
				afterEach: 'readonly',
			},
		},
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: shipped,
		...n8nCommunityNodesPlugin.configs.recommended,
	},
	{
		files: ['package.json'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
			'no-console': 'error',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
			'no-console': 'error',
		},
	},
);

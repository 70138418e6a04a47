import tseslint from 'typescript-eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

// What ships (nodes/, credentials/, package.json) gets n8n's node rules and the community-node rules that
// n8n's verification scanner applies; everything else (sandbox, tests, tooling) gets typescript-eslint.
const shipped = ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'];

export default tseslint.config(
	{ ignores: ['dist/**', '.build/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// n8n's own node-cli turns this off: documentationUrl is a full URL, not a camelCase slug.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// As in n8n's own node-cli config: these two predate NodeConnectionTypes, which the community rules require.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: shipped,
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	{
		// Tests and tooling run on a developer's machine, not inside n8n Cloud.
		files: ['test/**/*.ts', 'tooling/**/*.ts', 'sandbox/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
);

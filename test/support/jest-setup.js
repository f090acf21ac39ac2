// n8n-core reads its settings from a user folder; give every test run a throwaway one.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-card-gateway-test-'));
process.env.N8N_RUNNERS_ENABLED = 'false';
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';

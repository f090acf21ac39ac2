// What happens to one incoming request. Order: read → verify → filter → (confirm) → answer → emit.
// Refusals and acknowledgements that start nothing are written here at once (`noWebhookResponse: true`);
// so is the 403 of a callback refused for its signature, which then starts the Rejected output (rejected.ts).
// A callback that starts the workflow is answered by n8n: after it has stored the execution, or with
// Answer the Gateway "After the Workflow Finished" when the execution ended (description.ts).
import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { credentialSecrets } from '../shared/protocol/signing';
import { readCallback } from '../shared/protocol/vocabulary';
import { CREDENTIAL_TYPE, merchantCredentials } from '../shared/transport';
import { STATUS } from '../shared/protocol/statusWords';
import { clampTimeout, confirmWithStatusQuery, type ConfirmMode } from './confirm';
import { readCallbackFields, type ReadOutcome } from './fields';
import { passesFilters, type FilterSettings } from './filters';
import {
	callbackInWords,
	conflictingSpellings,
	logSummary,
	normaliseCallback,
	normaliseStatus,
	type CallbackEvent,
} from './normalise';
import { REJECTED_CALLBACKS, rejectedItem } from './rejected';
import { redirectTarget, sendFixed, sendRedirect, setPlainTextHeaders, type ResponseWriter } from './respond';
import { describeVerificationFailure, verifyCallback } from './verify';

const LOG_PREFIX = 'Card Gateway Trigger:';

interface RequestLike {
	method?: string;
	rawBody?: Buffer | string;
	readRawBody?: () => Promise<unknown>;
}

export async function handleServerCallback(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const receivedAt = new Date().toISOString();
	const res = ctx.getResponseObject() as unknown as ResponseWriter;
	const { method, read } = await readRequest(ctx);
	if (!read.ok) {
		ctx.logger.warn(`${LOG_PREFIX} refused a malformed callback (HTTP 400): ${read.reason}`, { method });
		sendFixed(res, 400);
		return { noWebhookResponse: true };
	}
	const { fields } = read;
	const credentials = await merchantCredentials(ctx);
	const secrets = credentialSecrets(credentials);
	const verification = verifyCallback(fields, credentials.controlKey);
	if (!verification.genuine && ctx.getNodeParameter('verifySignature', true) !== false) {
		const log = verification.reason === 'noControlKey' ? ctx.logger.error : ctx.logger.warn;
		log.call(
			ctx.logger,
			`${LOG_PREFIX} refused a callback (HTTP 403): ${describeVerificationFailure(verification.reason)}`,
			{
				method,
				...logSummary(fields, secrets),
			},
		);
		sendFixed(res, 403);
		if (ctx.getNodeParameter('rejectedCallbacks', REJECTED_CALLBACKS.startExecution) === REJECTED_CALLBACKS.logOnly)
			return { noWebhookResponse: true };
		// Answered already; the execution has only the Rejected output's item, so nothing on Accepted runs.
		const rejected = rejectedItem(fields, {
			reason: verification.reason,
			credential: ctx.getNode().credentials?.[CREDENTIAL_TYPE]?.name ?? '',
			method,
			receivedAt,
			secrets,
		});
		return { noWebhookResponse: true, workflowData: [[], [{ json: rejected }]] };
	}
	const item = normaliseCallback(fields, {
		event: 'serverCallback',
		method,
		receivedAt,
		verified: verification.genuine,
		secrets,
	});
	if (
		!passesFilters(
			{ status: item.status as string, type: (item.type as string | undefined) ?? '' },
			filterSettings(ctx),
		)
	) {
		ctx.logger.debug(`${LOG_PREFIX} callback acknowledged but filtered out`, {
			method,
			...logSummary(fields, secrets),
		});
		sendFixed(res, 200);
		return { noWebhookResponse: true };
	}
	const mode = ctx.getNodeParameter('confirm', 'off') as ConfirmMode;
	if (mode === 'emitOnlyWhenConfirmed' || mode === 'emitWithConfirmedFlag') {
		const record = readCallback(fields);
		const ids = { orderid: record.orderId ?? '', client_orderid: record.clientOrderId ?? '' };
		const outcome = await confirmWithStatusQuery(
			ctx,
			item,
			ids,
			clampTimeout(ctx.getNodeParameter('confirmTimeout', 10)),
		);
		const summary = logSummary(fields, secrets);
		if (outcome.kind === 'retry') {
			ctx.logger.warn(
				`${LOG_PREFIX} answered 503 so the gateway resends the callback later: ${outcome.reason}; ${callbackInWords(summary)}`,
				{ method, ...summary },
			);
			sendFixed(res, 503);
			return { noWebhookResponse: true };
		}
		item.confirmed = outcome.confirmed;
		item.confirmation = outcome.confirmation;
		// Confirmed: the gateway said this order, status and type, so every part of eventKey is attested;
		// the amount only where the reply could say it (never a follow-up's own: confirm.ts).
		item.eventKeyConfirmed = outcome.confirmed;
		item.amountConfirmed = outcome.confirmed && outcome.confirmation.amountChecked === true;
		// A confirmed item reports only what the gateway attested; the rest stays in `raw`, as received.
		if (outcome.confirmed)
			for (const name of (outcome.confirmation.unchecked as string[] | undefined) ?? []) delete item[name];
		if (!outcome.confirmed && mode === 'emitOnlyWhenConfirmed') {
			const mismatches = (outcome.confirmation.mismatches as string[] | undefined) ?? [];
			ctx.logger.warn(
				`${LOG_PREFIX} the status query does not confirm the callback of ${callbackInWords(summary)}: ${mismatches.join('; ')}; acknowledged, nothing started`,
				{ method, ...summary, mismatches },
			);
			sendFixed(res, 200);
			return { noWebhookResponse: true };
		}
	}
	// n8n 2.x sends an 'onReceived' answer (the webhook's responseData, `OK`) only after it has
	// stored the execution, a 'lastNode' one when the execution ended; if either fails the gateway
	// gets a 500 and resends. Writing the 200 here would acknowledge callbacks that n8n then loses.
	setPlainTextHeaders(res);
	return { workflowData: [[{ json: item }]] };
}

export async function handleCustomerReturn(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const receivedAt = new Date().toISOString();
	const res = ctx.getResponseObject() as unknown as ResponseWriter;
	if (ctx.getNodeParameter('customerReturn', false) !== true) {
		ctx.logger.warn(`${LOG_PREFIX} a customer return arrived but Handle Customer Return is off (HTTP 404)`);
		sendFixed(res, 404);
		return { noWebhookResponse: true };
	}
	const successUrl = redirectTarget(ctx.getNodeParameter('successUrl', ''));
	const failureUrl = redirectTarget(ctx.getNodeParameter('failureUrl', ''));
	if (!successUrl || !failureUrl) {
		ctx.logger.error(
			`${LOG_PREFIX} Success URL and Failure URL must be absolute http(s) URLs; the customer return was answered 500`,
		);
		sendFixed(res, 500);
		return { noWebhookResponse: true };
	}
	const { method, read } = await readRequest(ctx);
	if (!read.ok) {
		ctx.logger.warn(`${LOG_PREFIX} sent a malformed customer return to the failure page: ${read.reason}`, { method });
		sendRedirect(res, failureUrl);
		return { noWebhookResponse: true };
	}
	const { fields } = read;
	const credentials = await merchantCredentials(ctx);
	const secrets = credentialSecrets(credentials);
	const verification = verifyCallback(fields, credentials.controlKey);
	if (!verification.genuine && ctx.getNodeParameter('verifySignature', true) !== false) {
		ctx.logger.warn(
			`${LOG_PREFIX} sent a customer return to the failure page: ${describeVerificationFailure(verification.reason)}`,
			{
				method,
				...logSummary(fields, secrets),
			},
		);
		sendRedirect(res, failureUrl);
		return { noWebhookResponse: true };
	}
	// Only a signed "approved" reaches the success page, even with verification turned off.
	const approved = verification.genuine && normaliseStatus(readCallback(fields).status) === STATUS.approved;
	const item = normaliseCallback(fields, {
		event: 'customerReturn',
		method,
		receivedAt,
		verified: verification.genuine,
		secrets,
	});
	item.redirectedTo = approved ? 'success' : 'failure';
	sendRedirect(res, approved ? successUrl : failureUrl);
	if (!passesFilters({ status: item.status as string }, filterSettings(ctx))) {
		return { noWebhookResponse: true };
	}
	return { noWebhookResponse: true, workflowData: [[{ json: item }]] };
}

/** A gateway sends query strings, form bodies or JSON; anything else is refused unread (HTTP 400). */
async function readRequest(ctx: IWebhookFunctions): Promise<{ method: string; read: ReadOutcome }> {
	const req = ctx.getRequestObject() as unknown as RequestLike;
	const method = String(req.method ?? 'GET').toUpperCase();
	const headers = ctx.getHeaderData();
	const contentType = typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined;
	if (method === 'POST' && contentType && /^\s*multipart\//i.test(contentType)) {
		return { method, read: { ok: false, reason: 'a multipart body is not a gateway callback' } };
	}
	try {
		if (method === 'POST' && req.rawBody === undefined && typeof req.readRawBody === 'function') {
			// n8n only reads the raw body on demand for some start nodes; read it before falling back to it.
			await req.readRawBody();
		}
		const read = readCallbackFields({
			method,
			query: ctx.getQueryData(),
			body: method === 'POST' ? ctx.getBodyData() : undefined,
			rawBody: req.rawBody,
			contentType,
		});
		if (!read.ok) return { method, read };
		const conflict = conflictingSpellings(read.fields);
		return { method, read: conflict ? { ok: false, reason: conflict } : read };
	} catch {
		return { method, read: { ok: false, reason: 'the request could not be read' } };
	}
}

function filterSettings(ctx: IWebhookFunctions): FilterSettings {
	return {
		statuses: (ctx.getNodeParameter('statuses', []) as string[]) ?? [],
		transactionTypes: (ctx.getNodeParameter('transactionTypes', []) as string[]) ?? [],
	};
}

export function eventOf(webhookName: string, returnWebhook: string): CallbackEvent {
	return webhookName === returnWebhook ? 'customerReturn' : 'serverCallback';
}

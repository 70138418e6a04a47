import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

import { nowIso } from './dates';
import type { EventName } from './events';
import { timestampIn } from './timestampForms';
import type { VariantSettings, WebhookTimestampForm } from './variants';

/** One of the six, or (future-events variant) a name a later API version may add. */
export type DeliveredEvent = EventName | (string & {});

export interface Subscription {
	id: number;
	url: string;
	/** Whether deliveries are signed; the secret itself is never shown. */
	signed: boolean;
	/** null: every event. */
	events: EventName[] | null;
	createdAt: string;
}

export interface DeliveryAttempt {
	at: string;
	status?: number;
	error?: string;
}

export interface Delivery {
	id: string;
	subscriptionId: number;
	event: DeliveredEvent;
	url: string;
	body: unknown;
	attempts: DeliveryAttempt[];
	delivered: boolean;
	/** No further attempt will be made (delivered, or retries exhausted). */
	done: boolean;
	/** Sent by POST /__sandbox/deliveries: no event happened in the ERP. */
	forged: boolean;
}

/** A delivery no event caused, as anyone who knows a receiver's URL can send it. */
export interface ForgeRequest {
	event: string;
	/** Default {}. */
	data?: unknown;
	/** The whole body instead of {event, timestamp, data}: any JSON value, or a string sent as it is. */
	body?: unknown;
	/** The delivery id header's value (under the variant's header name); default a new UUID. */
	deliveryId?: string;
	/** Added last, over the contract's headers. */
	headers?: Record<string, string>;
	/** true: signed with the subscription's secret (when it has one); a string: signed with that secret; default unsigned. */
	sign?: boolean | string;
	/** Only this subscription; default every subscription whose events include `event`. */
	subscriptionId?: number;
}

export interface EmittedEvent {
	seq: number;
	event: DeliveredEvent;
	/** When it happened (ISO, milliseconds); the delivered body has it in the variant's form. */
	timestamp: string;
	data: unknown;
	deliveryIds: string[];
}

export interface WebhookSettings {
	/** One retry per entry, after that many ms. */
	retryDelaysMs: number[];
	timeoutMs: number;
	/** How delivery bodies write their timestamp (read at each emit); default ISO with milliseconds. */
	timestampForm?: () => WebhookTimestampForm;
	/** The header naming each delivery (read at each emit, kept for its retries); default X-Erp-Delivery. */
	deliveryIdHeader?: () => VariantSettings['deliveryIdHeader'];
}

const ID_HEADER_NAMES = { 'x-erp-delivery': 'X-Erp-Delivery', 'webhook-id': 'Webhook-Id', none: null } as const;

type LoggedDelivery = Delivery & { raw: string; secret: string | null; idHeader: string | null; extraHeaders?: Record<string, string> };

const KEEP = 10_000;

/** Webhook subscriptions and the deliveries of every emitted event (real HTTP POSTs, retried). */
export class Webhooks {
	private subscriptions = new Map<number, Subscription & { secret: string | null }>();

	private lastSubscriptionId = 0;

	private deliveryLog: LoggedDelivery[] = [];

	private eventLog: EmittedEvent[] = [];

	private lastEventSeq = 0;

	private timers = new Set<NodeJS.Timeout>();

	private requests = new Set<http.ClientRequest>();

	/** Bumped by `stop`, so callbacks of cancelled deliveries do nothing. */
	private generation = 0;

	constructor(private readonly settings: WebhookSettings) {}

	subscribe(url: string, secret: string | null, events: EventName[] | null): Subscription {
		const subscription = { id: ++this.lastSubscriptionId, url, secret, events, signed: secret !== null, createdAt: nowIso() };
		this.subscriptions.set(subscription.id, subscription);
		return publicSubscription(subscription);
	}

	unsubscribe(id: number): boolean {
		return this.subscriptions.delete(id);
	}

	list(): Subscription[] {
		return [...this.subscriptions.values()].map(publicSubscription);
	}

	deliveries(): Delivery[] {
		return this.deliveryLog.map(shownDelivery);
	}

	events(): EmittedEvent[] {
		return [...this.eventLog];
	}

	/** Records the event and starts one delivery per matching subscription. `data` is copied now. */
	emit(event: DeliveredEvent, data: object): EmittedEvent {
		const timestamp = nowIso();
		const raw = this.bodyOf(event, timestamp, data);
		const emitted: EmittedEvent = { seq: ++this.lastEventSeq, event, timestamp, data: JSON.parse(raw).data, deliveryIds: [] };
		const idHeader = ID_HEADER_NAMES[this.settings.deliveryIdHeader?.() ?? 'x-erp-delivery'];
		for (const subscription of this.subscriptions.values()) {
			if (!wants(subscription, event)) continue;
			emitted.deliveryIds.push(this.deliver({ subscription, event, raw, secret: subscription.secret, idHeader, forged: false }).id);
		}
		keepLast(this.eventLog, emitted);
		return emitted;
	}

	/**
	 * Sends a delivery no event caused through the same path as real ones (headers, retries, the log); returns
	 * the deliveries started, one per subscription reached.
	 */
	forge(request: ForgeRequest): Delivery[] {
		const { event, body, sign = false } = request;
		const raw =
			body === undefined
				? this.bodyOf(event, nowIso(), request.data ?? {})
				: typeof body === 'string'
					? body
					: JSON.stringify(body);
		const idHeader = ID_HEADER_NAMES[this.settings.deliveryIdHeader?.() ?? 'x-erp-delivery'];
		const targets = [...this.subscriptions.values()].filter((subscription) =>
			request.subscriptionId === undefined ? wants(subscription, event) : subscription.id === request.subscriptionId,
		);
		const started = targets.map((subscription) =>
			this.deliver({
				subscription,
				event,
				raw,
				secret: sign === true ? subscription.secret : sign === false ? null : sign,
				idHeader,
				forged: true,
				id: request.deliveryId,
				extraHeaders: request.headers,
			}),
		);
		return started.map(shownDelivery);
	}

	/** Cancels pending retries and in-flight requests. */
	stop(): void {
		this.generation++;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const request of this.requests) request.destroy();
		this.requests.clear();
	}

	reset(): void {
		this.stop();
		this.subscriptions.clear();
		this.deliveryLog = [];
		this.eventLog = [];
	}

	/** A delivery's bytes: {event, timestamp, data} with the timestamp in the variant's form. */
	private bodyOf(event: DeliveredEvent, timestamp: string, data: unknown): string {
		const form = this.settings.timestampForm?.() ?? 'iso-ms';
		return JSON.stringify(form === 'missing' ? { event, data } : { event, timestamp: timestampIn(form, timestamp), data });
	}

	private deliver(start: {
		subscription: Subscription;
		event: DeliveredEvent;
		raw: string;
		secret: string | null;
		idHeader: string | null;
		forged: boolean;
		id?: string;
		extraHeaders?: Record<string, string>;
	}): LoggedDelivery {
		const { subscription, event, raw, secret, idHeader, forged, extraHeaders } = start;
		let body: unknown = raw;
		try {
			body = JSON.parse(raw);
		} catch {
			// A forged body that is not JSON is logged as the text it is.
		}
		const delivery: LoggedDelivery = {
			id: start.id ?? randomUUID(),
			subscriptionId: subscription.id,
			event,
			url: subscription.url,
			body,
			attempts: [],
			delivered: false,
			done: false,
			forged,
			raw,
			secret,
			idHeader,
			...(extraHeaders ? { extraHeaders } : {}),
		};
		keepLast(this.deliveryLog, delivery);
		this.attempt(delivery, this.generation);
		return delivery;
	}

	private attempt(delivery: LoggedDelivery, generation: number): void {
		const headers: Record<string, string | number> = {
			'Content-Type': 'application/json',
			'Content-Length': Buffer.byteLength(delivery.raw),
			'User-Agent': 'erp-webhooks/1',
			'X-Erp-Event': delivery.event,
		};
		if (delivery.idHeader !== null) headers[delivery.idHeader] = delivery.id;
		if (delivery.secret !== null) {
			headers['X-Erp-Signature'] = `sha256=${createHmac('sha256', delivery.secret).update(delivery.raw).digest('hex')}`;
		}
		Object.assign(headers, delivery.extraHeaders);
		let settled = false;
		const settle = (result: { status?: number; error?: string }) => {
			if (settled || generation !== this.generation) return;
			settled = true;
			this.requests.delete(request);
			delivery.attempts.push({ at: nowIso(), ...result });
			if (result.status !== undefined && result.status >= 200 && result.status < 300) {
				delivery.delivered = true;
				delivery.done = true;
				return;
			}
			const delay = this.settings.retryDelaysMs[delivery.attempts.length - 1];
			if (delay === undefined) {
				delivery.done = true;
				return;
			}
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				this.attempt(delivery, generation);
			}, delay);
			this.timers.add(timer);
		};
		const client = delivery.url.startsWith('https:') ? https : http;
		const request = client.request(delivery.url, { method: 'POST', headers, timeout: this.settings.timeoutMs }, (response) => {
			response.resume();
			settle({ status: response.statusCode ?? 0 });
		});
		request.on('timeout', () => request.destroy(new Error(`no answer within ${this.settings.timeoutMs} ms`)));
		request.on('error', (error: Error) => settle({ error: error.message || (error as NodeJS.ErrnoException).code || error.name }));
		this.requests.add(request);
		request.end(delivery.raw);
	}
}

/** A delivery as the log shows it: without its bytes, secret and header choices. */
function shownDelivery({ raw: _raw, secret: _secret, idHeader: _idHeader, extraHeaders: _extra, ...delivery }: LoggedDelivery): Delivery {
	return { ...delivery, attempts: [...delivery.attempts] };
}

const wants = (subscription: Subscription, event: DeliveredEvent): boolean =>
	!subscription.events || subscription.events.includes(event as EventName);

function publicSubscription({ secret: _secret, ...subscription }: Subscription & { secret: string | null }): Subscription {
	return { ...subscription };
}

function keepLast<T>(log: T[], item: T): void {
	log.push(item);
	if (log.length > KEEP + 1000) log.splice(0, log.length - KEEP);
}

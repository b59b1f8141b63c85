/**
 * Confirms a card setup at the local billing stand-in, as Stripe.js does at api.stripe.com: the
 * publishable key and the setup's client secret, never the account's secret key. Resolves with
 * the provider's message on a refusal ("Your card was declined.").
 */
export async function confirmLocalCard(
  config: { localApiUrl: string; publishableKey: string },
  clientSecret: string,
  card: { number: string; expMonth: string; expYear: string; cvc: string },
): Promise<{ ok: true } | { ok: false; message: string }> {
  const intent = clientSecret.split('_secret_')[0] ?? '';
  try {
    const response = await fetch(
      `${config.localApiUrl}/v1/setup_intents/${encodeURIComponent(intent)}/confirm`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.publishableKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          client_secret: clientSecret,
          'payment_method_data[type]': 'card',
          'payment_method_data[card][number]': card.number,
          'payment_method_data[card][exp_month]': card.expMonth,
          'payment_method_data[card][exp_year]': card.expYear,
          'payment_method_data[card][cvc]': card.cvc,
        }),
      },
    );
    if (response.ok) return { ok: true };
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    return { ok: false, message: body?.error?.message ?? '' };
  } catch {
    return { ok: false, message: '' };
  }
}

/**
 * Signs a browser in on the platform host as the page does, the person saying yes when the host
 * asks whom the link signs in (`platform.signin_confirm`, login CSRF): the launch code, then the
 * confirm token. Answers the last response, its JSON and the session cookie it set ('' when none).
 */
export async function signInWithLaunchCode(
  origin: string,
  launchCode: string,
  headers: Record<string, string> = {},
): Promise<{
  response: Response;
  json: { ok: boolean; result?: { csrfToken: string; userId: string } };
  cookie: string;
}> {
  const post = async (body: unknown) => {
    const response = await fetch(`${origin}/platform/session`, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      response,
      json: (await response.json()) as {
        ok: boolean;
        result?: { csrfToken: string; userId: string };
        error?: { code?: string; details?: { confirmToken?: string } };
      },
    };
  };
  let answer = await post({ launchCode });
  const error = answer.json.error;
  if (answer.response.status === 409 && error?.code === 'platform.signin_confirm')
    answer = await post({ confirmToken: error.details?.confirmToken, confirm: true });
  return {
    response: answer.response,
    json: answer.json,
    cookie: (answer.response.headers.get('set-cookie') ?? '').split(';')[0]!,
  };
}

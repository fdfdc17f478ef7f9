// s3Answer: a raw HTTP response (fetch) read the way the tests that sign or replay requests by
// hand check it: the status, the S3 error body's <Code> and <Message> when there is one, and the
// whole text for the assertion messages.
export interface S3Answer {
  readonly status: number;
  /** The error body's <Code>, undefined for a success or a body-less answer. */
  readonly code: string | undefined;
  /** The error body's <Message>. */
  readonly message: string | undefined;
  readonly text: string;
}

/** Reads the whole body of `res` and picks out the S3 error fields. */
export async function s3Answer(res: Response): Promise<S3Answer> {
  const text = await res.text();
  return {
    status: res.status,
    code: /<Code>([^<]*)<\/Code>/.exec(text)?.[1],
    message: /<Message>([^<]*)<\/Message>/.exec(text)?.[1],
    text,
  };
}

import type { IncomingMessage } from 'node:http';
import { ApiError } from './errors.ts';

// How the Sandbox reads a request's body: its exact bytes, since the signature covers them (§5.8).
//
// Fastify's own reader (parseAs 'buffer') listens for the stream's 'data' and 'end' events, which cost a
// small order as much as its matching: the stream is resumed on one tick, its chunk emitted, its end
// emitted on another. A body that fits one TCP segment (every order) is in the stream's buffer by the
// next tick, whole: its length is the Content-Length the client declared, and Node's parser never
// delivers a byte past it. Such a body is read in one call; any other (split across segments, chunked,
// empty) is read from the events as before.

export const BODY_LIMIT = 1 << 20;

export type BodyDone = (err: Error | null, body?: Buffer) => void;

function tooLarge(): ApiError {
  return new ApiError('INVALID_REQUEST_BODY', 'request body is larger than 1 MiB');
}

/** A fastify content-type parser: hands `done` the body's bytes, or INVALID_REQUEST_BODY past BODY_LIMIT. */
export function readBody(req: { headers: IncomingMessage['headers'] }, payload: IncomingMessage, done: BodyDone): void {
  const declared = Number(req.headers['content-length']);
  // Refused before a byte is read: the client declared too much.
  if (declared > BODY_LIMIT) return done(tooLarge());
  process.nextTick(readWhenWhole, payload, declared, done);
}

function readWhenWhole(payload: IncomingMessage, declared: number, done: BodyDone): void {
  if (declared > 0 && payload.readableLength === declared && payload.readableFlowing === null) {
    // Never null here: the buffer holds the declared bytes, and there are more than none.
    done(null, payload.read() as Buffer);
    return;
  }
  readFromEvents(payload, done);
}

function readFromEvents(payload: IncomingMessage, done: BodyDone): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > BODY_LIMIT) {
      stop();
      done(tooLarge());
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = (err?: Error) => {
    stop();
    if (err) done(err);
    else done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
}

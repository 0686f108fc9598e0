// An Express 5 application assembled from Express's own modules (application, request, response),
// without the `express` entry point. That entry only adds express.json()/urlencoded()/static() and,
// to offer them, loads body-parser and qs at import, for helpers no REST mount needs (rest.ts).
// express is pinned to an exact version in package.json because these module paths are internal.
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Express } from 'express';

const require = createRequire(import.meta.url);

const copyInto = (target: object, source: object) => {
  for (const [key, desc] of Object.entries(Object.getOwnPropertyDescriptors(source))) {
    if (!Object.hasOwn(target, key)) Object.defineProperty(target, key, desc);
  }
};

export function createExpressApp(): Express {
  // Loaded here, on the first mount, so that a node without Express routers never loads Express.
  const application = require('express/lib/application.js') as object;
  const requestProto = require('express/lib/request.js') as object;
  const responseProto = require('express/lib/response.js') as object;
  const app = ((req: unknown, res: unknown, next: unknown) =>
    (app as unknown as { handle: (req: unknown, res: unknown, next: unknown) => void }).handle(req, res, next)) as unknown as Express;
  copyInto(app, EventEmitter.prototype);
  copyInto(app, application);
  const withApp = { app: { configurable: true, enumerable: true, writable: true, value: app } };
  (app as unknown as { request: object }).request = Object.create(requestProto, withApp);
  (app as unknown as { response: object }).response = Object.create(responseProto, withApp);
  (app as unknown as { init(): void }).init();
  return app;
}

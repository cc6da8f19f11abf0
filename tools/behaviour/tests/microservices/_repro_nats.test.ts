import {afterAll, beforeAll, expect, test} from 'vitest';
import {service, nest, compileModule, memoryLogger} from '../../lib';
const {NestFactory} = nest('@nestjs/core');
const {Transport} = nest('@nestjs/microservices');
const {connect, JSONCodec} = nest('nats');
let nats: any;
beforeAll(async () => { nats = await service('nats'); });
afterAll(async () => { await nats?.stop(); });
test('repro', async () => {
  const seen: any[] = [];
  (globalThis as any).__seen = seen;
  const {AppModule, OrderEventsDeserializer} = compileModule(`
import { Controller, Module } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
export class OrderEventsDeserializer {
  deserialize(value: any, options: any) {
    (globalThis as any).__seen.push({raw: Object.prototype.toString.call(value), options});
    return { pattern: value.eventType, data: value.body };
  }
}
@Controller()
class C { @EventPattern('order_placed') placed(@Payload() d: any) { (globalThis as any).__seen.push({handled: d}); } }
@Module({controllers: [C]}) export class AppModule {}
`);
  const log = memoryLogger();
  const app = await NestFactory.createMicroservice(AppModule, {transport: Transport.NATS, logger: log.logger, options: {servers: [nats.url], deserializer: new OrderEventsDeserializer()}});
  await app.listen();
  const nc = await connect({servers: nats.url});
  const jc = JSONCodec();
  nc.publish('orders', jc.encode({eventType: 'order_placed', body: {id: 1}}));
  nc.publish('order_placed', jc.encode({eventType: 'order_placed', body: {id: 2}}));
  await nc.flush();
  await new Promise((r) => setTimeout(r, 500));
  console.log(JSON.stringify(seen), log.text());
  await nc.close();
  await app.close();
});

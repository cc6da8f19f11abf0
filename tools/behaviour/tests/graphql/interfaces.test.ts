import {afterAll, beforeAll, describe, expect} from 'vitest';
import {claim, samples, nest, fragment, expectOutput} from '../../lib';
import {start, gql, tempDir, type Started} from './_support';

const {Module} = nest('@nestjs/common');
const {GraphQLModule, GraphQLSchemaHost} = nest('@nestjs/graphql');
const {printType} = nest('graphql');
const page = 'docs/graphql/interfaces.md';

const service = (animals: string) => ({
  'animals/animals.service': `
import { Injectable } from '@nestjs/common';
import { Cat } from './models/cat.model';
import { Dog } from './models/dog.model';

@Injectable()
export class AnimalsService {
  async findAll(): Promise<any[]> {
    return ${animals};
  }
}
`,
});

const catAndDogInstances =
  "[Object.assign(new Cat(), { id: '1', name: 'Tom', age: 3, livesLeft: 9 }), Object.assign(new Dog(), { id: '2', name: 'Rex', age: 5, goodBoy: true })]";
const plainObjects =
  "[{ id: '1', name: 'Tom', age: 3, livesLeft: 9 }, { id: '2', name: 'Rex', age: 5, goodBoy: true }]";
const query = '{ animals { __typename name ... on Cat { livesLeft } ... on Dog { goodBoy } } }';
const expected = {
  data: {
    animals: [
      {__typename: 'Cat', name: 'Tom', livesLeft: 9},
      {__typename: 'Dog', name: 'Rex', goodBoy: true},
    ],
  },
};

async function appOf(set: any, extra: unknown[] = []): Promise<Started> {
  const {AnimalsResolver} = set.require('animals/animals.resolver');
  const {AnimalsService} = set.require('animals/animals.service');
  @Module({
    imports: [GraphQLModule.forRoot({autoSchemaFile: true})],
    providers: [AnimalsResolver, AnimalsService, ...extra],
  })
  class AppModule {}
  return start(AppModule);
}

describe('code first, the interface with resolveType() (the page’s last version)', () => {
  let started: Started;
  beforeAll(async () => {
    const set = samples(page, {
      pick: {'animals/animals.resolver': 1},
      files: service(plainObjects),
    });
    started = await appOf(set, [
      set.require('animals/animal-interface.resolver').AnimalInterfaceResolver,
    ]);
  });
  afterAll(() => started?.close());

  claim(
    `${page}#code-first`,
    'the interface and both object types give the SDL the page shows',
    () => {
      const schema = started.app.get(GraphQLSchemaHost).schema;
      const sdl = ['Animal', 'Cat', 'Dog']
        .map((name) => printType(schema.getType(name)).replace(/\n {2}ageInHumanYears: Int!/, ''))
        .join('\n\n');
      expectOutput(page, 'animal-sdl', sdl);
    },
  );

  claim(
    `${page}#resolving-the-concrete-type`,
    'resolveType() picks Cat or Dog for plain objects; both types are in the schema although no field returns them directly',
    async () => {
      expect((await gql(`${started.base}/graphql`, query)).body).toEqual(expected);
    },
  );

  claim(
    `${page}#interface-resolvers`,
    'a @ResolveField() on the interface resolver gives every implementing type the field',
    async () => {
      const {body} = await gql(`${started.base}/graphql`, '{ animals { name ageInHumanYears } }');
      expect(body).toEqual({
        data: {
          animals: [
            {name: 'Tom', ageInHumanYears: 21},
            {name: 'Rex', ageInHumanYears: 35},
          ],
        },
      });
      const schema = started.app.get(GraphQLSchemaHost).schema;
      expect(Object.keys(schema.getType('Dog').getFields())).toContain('ageInHumanYears');
    },
  );
});

describe('code first, the interface without resolveType()', () => {
  // The first version of the interface; its types are renamed so they can live next to the others in this process.
  const rename = (from: string, to: string): [string, string][] => [[from, to]];
  function set(animals: string) {
    return samples(page, {
      pick: {'animals/animals.resolver': 1, 'animals/models/animal.interface': 1},
      files: service(animals),
      edit: {
        'animals/models/animal.interface': rename('@InterfaceType()', "@InterfaceType('Animal')"),
        'animals/models/cat.model': rename(
          '@ObjectType({ implements: () => [Animal] })',
          "@ObjectType('Cat', { implements: () => [Animal] })",
        ),
        'animals/models/dog.model': rename(
          '@ObjectType({ implements: () => [Animal] })',
          "@ObjectType('Dog', { implements: () => [Animal] })",
        ),
      },
    });
  }
  let instances: ReturnType<typeof set>;
  beforeAll(() => {
    instances = set(catAndDogInstances);
  });

  claim(
    `${page}#resolving-the-concrete-type`,
    'instances of Cat and Dog are told apart with instanceof',
    async () => {
      const started = await appOf(instances);
      try {
        expect((await gql(`${started.base}/graphql`, query)).body).toEqual(expected);
      } finally {
        await started.close();
      }
    },
  );

  claim(
    `${page}#resolving-the-concrete-type`,
    'plain objects with __typename work; plain objects without it fail to resolve',
    async () => {
      const {AnimalsService} = instances.require('animals/animals.service');
      const started = await appOf(instances);
      const service = started.app.get(AnimalsService);
      try {
        service.findAll = async () => [
          {__typename: 'Cat', id: '1', name: 'Tom', age: 3, livesLeft: 9},
          {__typename: 'Dog', id: '2', name: 'Rex', age: 5, goodBoy: true},
        ];
        expect((await gql(`${started.base}/graphql`, query)).body).toEqual(expected);
        service.findAll = async () => [{id: '1', name: 'Tom', age: 3, livesLeft: 9}];
        const {body} = await gql(`${started.base}/graphql`, query);
        expect(body.data).toBeNull();
        expect(body.errors[0].message).toMatch(
          /^Return type for "Animal" cannot be resolved. If you did not pass a custom implementation \(the "resolveType" function\), you must return an instance of a class/,
        );
      } finally {
        await started.close();
      }
    },
  );
});

claim(
  `${page}#schema-first`,
  'schema first: the __resolveType field resolver returns the type name',
  async () => {
    const dir = tempDir({
      'animals.graphql': fragment(page, 'schema-first', 'interface Animal').value,
    });
    const {AnimalsResolver} = samples(page, {
      pick: {'animals/animals.resolver': 2},
      files: service(plainObjects),
    }).require('animals/animals.resolver');
    const {Resolver, Query} = nest('@nestjs/graphql');
    @Resolver()
    class Queries {
      @Query()
      animals() {
        return [
          {id: '1', name: 'Tom', age: 3, livesLeft: 9},
          {id: '2', name: 'Rex', age: 5, goodBoy: true},
        ];
      }
    }
    @Module({
      imports: [GraphQLModule.forRoot({typePaths: [`${dir}/*.graphql`]})],
      providers: [AnimalsResolver, Queries],
    })
    class AppModule {}
    const started = await start(AppModule);
    try {
      expect((await gql(`${started.base}/graphql`, query)).body).toEqual(expected);
    } finally {
      await started.close();
    }
  },
);

/**
 * The JavaScript expressions of a page (`{links.x}`, `` href={`mailto:${links.y}`} ``) as far as a
 * Markdown twin needs them: a tiny evaluator of literals, template literals and member access on
 * the names of `scope`. Anything else is not evaluated (`unknownValue`).
 */
import type {MdxFlowExpression, MdxTextExpression} from 'mdast-util-mdx-expression';
import type {MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx';

export interface EstreeNode {
  readonly type: string;
  readonly [key: string]: unknown;
}

export const unknownValue = Symbol('unknown');

export function evaluate(
  node: EstreeNode | undefined,
  scope: Readonly<Record<string, unknown>>,
): unknown {
  if (!node) return unknownValue;
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'Identifier':
      return Object.hasOwn(scope, node.name as string) ? scope[node.name as string] : unknownValue;
    case 'MemberExpression': {
      const object = evaluate(node.object as EstreeNode, scope);
      const property = node.computed
        ? evaluate(node.property as EstreeNode, scope)
        : (node.property as EstreeNode).name;
      if (object === unknownValue || object === null || typeof object !== 'object') {
        return unknownValue;
      }
      if (typeof property !== 'string' || !Object.hasOwn(object, property)) return unknownValue;
      return (object as Record<string, unknown>)[property];
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as {value: {cooked: string}}[];
      const expressions = node.expressions as EstreeNode[];
      let text = quasis[0]?.value.cooked ?? '';
      for (let i = 0; i < expressions.length; i += 1) {
        const value = evaluate(expressions[i], scope);
        if (value === unknownValue || (typeof value === 'object' && value !== null)) {
          return unknownValue;
        }
        text += String(value) + (quasis[i + 1]?.value.cooked ?? '');
      }
      return text;
    }
    default:
      return unknownValue;
  }
}

export type Expression = MdxFlowExpression | MdxTextExpression;

/** What an expression node stands for: a comment (nothing), a string, or unknown. */
export function expressionValue(
  node: Expression,
  scope: Readonly<Record<string, unknown>>,
): {comment: true} | {comment: false; value: unknown} {
  const program = node.data?.estree as {body: EstreeNode[]} | undefined | null;
  if (program && program.body.length === 0) return {comment: true};
  if (!program && /^\s*\/\*[\s\S]*\*\/\s*$/.test(node.value)) return {comment: true};
  const statement = program?.body[0];
  if (program?.body.length !== 1 || statement?.type !== 'ExpressionStatement') {
    return {comment: false, value: unknownValue};
  }
  return {comment: false, value: evaluate(statement.expression as EstreeNode, scope)};
}

/** The value of a JSX attribute as a string, if it can be known. */
export function attributeValue(
  element: MdxJsxFlowElement | MdxJsxTextElement,
  name: string,
  scope: Readonly<Record<string, unknown>>,
): string | undefined {
  for (const attribute of element.attributes) {
    if (attribute.type !== 'mdxJsxAttribute' || attribute.name !== name) continue;
    if (typeof attribute.value === 'string') return attribute.value;
    const program = attribute.value?.data?.estree as {body: EstreeNode[]} | undefined;
    const statement = program?.body[0];
    if (statement?.type !== 'ExpressionStatement') return undefined;
    const value = evaluate(statement.expression as EstreeNode, scope);
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

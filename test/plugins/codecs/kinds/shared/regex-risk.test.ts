import { expect } from 'chai';
import { hasNestedQuantifier } from '../../../../../plugins/codecs/kinds/shared/regex-risk.js';

describe('regular expressions that backtrack exponentially', () => {
  it('are recognised by a repeated group that contains a repeat', () => {
    for (const source of ['(a+)+', '^(\\w*,?)*$', '((ab)*c)+', '(a{1,5}){2,}', '(?:x+y?)*', '([a-z]+\\.)+com']) {
      expect(hasNestedQuantifier(source), source).to.equal(true);
    }
  });

  it('leave ordinary patterns alone, including quantifier characters in classes and escapes', () => {
    for (const source of [
      '^[a-z]+$',
      '(ab|cd)+',
      '^\\d{3}-\\d{4}$',
      '([+*]x)+',
      '(\\+)+',
      '(a{2})+',
      '(a?)',
      '[(a+)+]',
      '^(\\(a+\\))$',
    ]) {
      expect(hasNestedQuantifier(source), source).to.equal(false);
    }
  });
});

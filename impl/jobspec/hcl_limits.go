package jobspec

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// HCL's parser recurses once per nesting level, so a file of a few hundred
// kilobytes of "[" or "- - - x" overflows the goroutine stack, a fatal
// error no recover catches. checkNesting bounds both before parsing, on
// the (iterative) lexer's tokens. Real jobspecs stay far below the limits.
const (
	// maxNesting bounds open blocks, brackets, parentheses, strings,
	// heredocs and template sequences.
	maxNesting = 100
	// maxChain bounds the unary, ternary and subtraction operators of one
	// list element, argument or attribute (each may nest the parse).
	maxChain = 100
)

var (
	openTokens = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenOBrace: true, hclsyntax.TokenOBrack: true, hclsyntax.TokenOParen: true,
		hclsyntax.TokenOQuote: true, hclsyntax.TokenOHeredoc: true,
		hclsyntax.TokenTemplateInterp: true, hclsyntax.TokenTemplateControl: true,
	}
	closeTokens = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenCBrace: true, hclsyntax.TokenCBrack: true, hclsyntax.TokenCParen: true,
		hclsyntax.TokenCQuote: true, hclsyntax.TokenCHeredoc: true, hclsyntax.TokenTemplateSeqEnd: true,
	}
	chainTokens = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenMinus: true, hclsyntax.TokenBang: true, hclsyntax.TokenQuestion: true,
	}
)

// checkNesting reports the first token past either limit.
func checkNesting(filename string, src []byte) hcl.Diagnostics {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	chains := []int{0} // operators so far in the current element, per level
	fail := func(tok hclsyntax.Token, summary, detail string) hcl.Diagnostics {
		rng := tok.Range
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &rng}}
	}
	for _, tok := range tokens {
		top := len(chains) - 1
		switch {
		case openTokens[tok.Type]:
			if len(chains) > maxNesting {
				return fail(tok, "Nesting too deep", fmt.Sprintf("Blocks, brackets, strings and templates may nest at most %d levels deep.", maxNesting))
			}
			chains = append(chains, 0)
		case closeTokens[tok.Type]:
			if top > 0 {
				chains = chains[:top]
			}
		case tok.Type == hclsyntax.TokenComma || tok.Type == hclsyntax.TokenNewline:
			chains[top] = 0
		case chainTokens[tok.Type]:
			if chains[top]++; chains[top] > maxChain {
				return fail(tok, "Expression too long", fmt.Sprintf("One list element, argument or attribute may hold at most %d unary, conditional or subtraction operators.", maxChain))
			}
		}
	}
	return nil
}

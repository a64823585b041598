"""Which LaTeX control sequences are harmless: the tables both directions read.

Writing BibTeX (:mod:`citekit.bibtex.values`) keeps these verbatim; reading LaTeX as text
(:mod:`citekit.core.text`) decodes them. One list, so the two directions cannot disagree.
"""

from __future__ import annotations


#: Control words that print a glyph and take no argument (LaTeX kernel, any encoding).
GLYPH_COMMANDS = frozenset(
    "ss SS o O l L ae AE oe OE aa AA i j dh DH th TH ng NG dj DJ S P dag ddag copyright pounds "
    "ldots dots textellipsis textendash textemdash textquoteleft textquoteright textquotedblleft "
    "textquotedblright quotedblbase guillemotleft guillemotright guilsinglleft guilsinglright "
    "textbackslash textasciitilde textasciicircum textbraceleft textbraceright textless "
    "textgreater textbar textunderscore textdollar textperiodcentered textbullet textsection "
    "textparagraph textregistered texttrademark textdagger textdaggerdbl textexclamdown "
    "textquestiondown textcompwordmark slash LaTeX TeX LaTeXe relax".split()
)

#: Control words that take one braced argument and only style or accent its text.
ARGUMENT_COMMANDS = frozenset(
    "textit emph textbf texttt textsc textsf textrm textsl textup textmd textnormal "
    "textsuperscript textsubscript mbox ensuremath "
    # letter-named accents
    "c v u H k r d b t G".split()
)
#: The subset of :data:`ARGUMENT_COMMANDS` that are accents (they may take a bare letter).
LETTER_ACCENTS = frozenset("c v u H k r d b t G".split())

#: Accents written as a control symbol (``\\'e``, ``\\"{o}``).
SYMBOL_ACCENTS = frozenset("'`\"^~=.")
#: Control symbols that simply print a character or a space.
SAFE_SYMBOLS = frozenset("%#&_$,-/ @")

#: Math vocabulary of the LaTeX kernel plus amsmath/amssymb, the packages any paper with
#: formulas in its title already loads. Nothing here reads or writes files or redefines
#: anything, so balanced math made only of these words is kept verbatim.
MATH_COMMANDS = frozenset(
    # Greek
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi "
    "pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda "
    "Xi Pi Sigma Upsilon Phi Psi Omega "
    # letters and symbols
    "ell hbar imath jmath wp Re Im aleph infty nabla partial emptyset varnothing forall exists neg "
    "top bot angle prime backslash surd flat sharp natural clubsuit diamondsuit heartsuit spadesuit "
    # binary operators and relations
    "pm mp times div cdot ast star circ bullet oplus ominus otimes oslash odot cap cup uplus sqcap "
    "sqcup vee wedge setminus wr dagger ddagger amalg le leq ge geq ne neq equiv sim simeq approx "
    "cong propto prec succ preceq succeq ll gg subset supset subseteq supseteq in ni notin mid "
    "parallel perp models vdash dashv asymp doteq bowtie smile frown lesssim gtrsim ll gg triangleq "
    # arrows
    "to gets leftarrow rightarrow Leftarrow Rightarrow leftrightarrow Leftrightarrow mapsto "
    "longrightarrow longleftarrow Longrightarrow implies iff uparrow downarrow hookrightarrow "
    # big operators and functions
    "sum prod coprod int oint bigcup bigcap bigoplus bigotimes bigvee bigwedge log ln lg exp sin cos "
    "tan sinh cosh tanh arcsin arccos arctan min max sup inf lim liminf limsup arg det dim ker deg gcd "
    "Pr hom "
    # delimiters and sizing
    "left right big Big bigg Bigg bigl bigr Bigl Bigr langle rangle lceil rceil lfloor rfloor lvert "
    "rvert lVert rVert vert Vert "
    # constructions and fonts
    "frac dfrac tfrac sqrt binom overline underline hat widehat tilde widetilde bar vec dot ddot "
    "check breve acute grave mathring overbrace underbrace stackrel mathrm mathit mathbf mathsf "
    "mathtt mathcal mathbb mathfrak boldsymbol operatorname text quad qquad cdots ldots dots vdots "
    "ddots colon not".split()
)
#: Control symbols allowed inside math (spacing, escaped specials, ``\\{``, ``\\|``).
MATH_SYMBOLS = frozenset("{}|,;:! %#&_$")

// einsum.cpp - Einstein summation composed of recorded ops (permute, reshape, sum, where, matmul), so it
// is differentiable to any order without a backward of its own. Operands are contracted left to right,
// each pair as one batched matmul; labels nobody needs any more are summed out as early as possible.
#include <algorithm>
#include <string>
#include "core/quote.h"
#include "ops/ops.h"

namespace ct {
namespace {

constexpr int kLetters = 52;  // 'A'-'Z' -> 0..25, 'a'-'z' -> 26..51 (ASCII order); ellipsis dims follow

struct Term {
    std::vector<int> letters;  // labels left of the ellipsis ...
    std::vector<int> after;    // ... and right of it
    bool ellipsis = false;
};

int letter_label(char ch, const std::string& eq) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return 26 + (ch - 'a');
    fail(CT_ERR_INVALID_ARGUMENT, "einsum: invalid character ", quote_text(std::string(1, ch), '\''), " in equation ",
         quote_text(eq), " (subscripts are letters a-z, A-Z and ...)");
}

char label_char(int l) { return l < 26 ? char('A' + l) : char('a' + l - 26); }

Term parse_term(const std::string& s, const std::string& eq) {
    Term t;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '.') {
            if (t.ellipsis || s.compare(i, 3, "...") != 0)
                fail(CT_ERR_INVALID_ARGUMENT, "einsum: bad ellipsis in ", quote_text(s), " of equation ", quote_text(eq),
                     " (use ... at most once per term)");
            t.ellipsis = true;
            i += 2;
            continue;
        }
        (t.ellipsis ? t.after : t.letters).push_back(letter_label(s[i], eq));
    }
    return t;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts(1);
    for (char ch : s) {
        if (ch == sep) parts.emplace_back();
        else parts.back() += ch;
    }
    return parts;
}

// Labels of term with its ellipsis as labels kLetters + E - e .. kLetters + E - 1 (aligned from the right).
std::vector<int> expand_term(const Term& t, int64_t e, int64_t E) {
    std::vector<int> labels = t.letters;
    for (int64_t k = 0; k < e; ++k) labels.push_back(int(kLetters + E - e + k));
    labels.insert(labels.end(), t.after.begin(), t.after.end());
    return labels;
}

// Collapses repeated labels of one operand onto their diagonal (where + sum keep it differentiable).
Tensor take_diagonals(Tensor t, std::vector<int>& labels, size_t operand) {
    for (size_t q = 1; q < labels.size(); ++q) {
        for (size_t p = 0; p < q; ++p) {
            if (labels[p] != labels[q]) continue;
            int64_t n = t.sizes()[p];
            if (t.sizes()[q] != n)
                fail(CT_ERR_SHAPE, "einsum: subscript '", std::string(1, label_char(labels[p])), "' is repeated in operand ",
                     operand, " for dims of sizes ", n, " and ", t.sizes()[q]);
            Shape sp(t.dim(), 1), sq(t.dim(), 1);
            sp[p] = n, sq[q] = n;
            Tensor iota = arange(0, (double)n, 1, DType::Int64, t.device());
            Tensor on_diag = eq(reshape(iota, sp), reshape(iota, sq));
            t = sum(where(on_diag, t, scalar_tensor(0.0, t.dtype(), t.device())), {(int64_t)q}, false);
            labels.erase(labels.begin() + q);
            return take_diagonals(t, labels, operand);
        }
    }
    return t;
}

// t (distinct labels) permuted and reshaped to the full label order L (size 1 for labels it lacks).
Tensor align(const Tensor& t, const std::vector<int>& labels, const std::vector<int>& L) {
    IntList perm;
    Shape shape;
    for (int l : L) {
        auto it = std::find(labels.begin(), labels.end(), l);
        if (it == labels.end()) {
            shape.push_back(1);
        } else {
            perm.push_back(it - labels.begin());
            shape.push_back(t.sizes()[perm.back()]);
        }
    }
    return reshape(permute(t, perm), shape);
}

// Sums dims of t (keepdim) when the list is not empty (an empty list would mean "all dims").
Tensor sum_dims(const Tensor& t, const IntList& dims) { return dims.empty() ? t : sum(t, dims, true); }

// a and b aligned to L; needed[l] says whether label l is used after this pair. Returns the aligned product.
Tensor contract(Tensor a, Tensor b, const std::vector<bool>& needed, const std::vector<int>& L) {
    IntList batch, left, right, inner, rest, sum_a, sum_b;
    for (int64_t i = 0; i < (int64_t)L.size(); ++i) {
        int64_t sa = a.sizes()[i], sb = b.sizes()[i];
        if (sa != 1 && sb != 1 && sa != sb)
            fail(CT_ERR_SHAPE, "einsum: subscript ", L[i] < kLetters ? std::string(1, label_char(L[i])) : "in ...",
                 " has size ", sa, " in one operand and ", sb, " in another");
        if (sa != 1 && sb != 1) (needed[i] ? batch : inner).push_back(i);
        else if (sa != 1) (needed[i] ? left : sum_a).push_back(i);
        else if (sb != 1) (needed[i] ? right : sum_b).push_back(i);
        else rest.push_back(i);
    }
    a = sum_dims(a, sum_a), b = sum_dims(b, sum_b);
    for (int64_t i : sum_a) rest.push_back(i);  // summed dims now have size 1 in both
    for (int64_t i : sum_b) rest.push_back(i);
    auto size_of = [&](const IntList& dims, const Tensor& t) {
        int64_t n = 1;
        for (int64_t d : dims) n *= t.sizes()[d];
        return n;
    };
    auto cat_dims = [](std::initializer_list<IntList> lists) {
        IntList out;
        for (auto& l : lists) out.insert(out.end(), l.begin(), l.end());
        return out;
    };
    int64_t B = size_of(batch, a), M = size_of(left, a), K = size_of(inner, a), N = size_of(right, b);
    Tensor a3 = reshape(permute(a, cat_dims({batch, left, inner, right, rest})), {B, M, K});
    Tensor b3 = reshape(permute(b, cat_dims({batch, inner, left, right, rest})), {B, K, N});
    Tensor r = matmul(a3, b3);
    IntList order = cat_dims({batch, left, right, inner, rest});  // inner dims come back with size 1
    Shape shape;
    for (int64_t d : order) shape.push_back(std::max(a.sizes()[d], b.sizes()[d]));
    for (int64_t d : inner) shape[std::find(order.begin(), order.end(), d) - order.begin()] = 1;
    IntList inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = (int64_t)i;
    return permute(reshape(r, shape), inverse);
}

}  // namespace

Tensor einsum(const std::string& equation_in, const TensorList& operands) {
    std::string eq;
    for (char ch : equation_in)
        if (ch != ' ') eq += ch;
    if (operands.empty()) fail(CT_ERR_INVALID_ARGUMENT, "einsum: at least one operand is required");
    size_t arrow = eq.find("->");
    std::vector<std::string> lhs = split(eq.substr(0, arrow), ',');
    if (lhs.size() != operands.size())
        fail(CT_ERR_INVALID_ARGUMENT, "einsum: equation ", quote_text(equation_in), " has ", lhs.size(),
             " operand subscript(s) but ", operands.size(), " tensor(s) were given");
    std::vector<Term> terms;
    std::vector<int64_t> ell_dims;
    int64_t E = 0;
    for (size_t i = 0; i < lhs.size(); ++i) {
        terms.push_back(parse_term(lhs[i], eq));
        int64_t named = (int64_t)(terms[i].letters.size() + terms[i].after.size()), nd = operands[i].dim();
        if (terms[i].ellipsis ? named > nd : named != nd)
            fail(CT_ERR_SHAPE, "einsum: subscripts ", quote_text(lhs[i]), " of operand ", i, " do not fit its shape ",
                 shape_str(operands[i].sizes()));
        ell_dims.push_back(terms[i].ellipsis ? nd - named : 0);
        E = std::max(E, ell_dims.back());
        check_same_device("einsum", operands[0], operands[i]);
        if (operands[i].dtype() == DType::Bool) fail(CT_ERR_DTYPE, "einsum: bool operands are not supported");
    }
    std::vector<std::vector<int>> labels;
    std::vector<int> count(kLetters + E, 0);
    for (size_t i = 0; i < terms.size(); ++i) {
        labels.push_back(expand_term(terms[i], ell_dims[i], E));
        for (int l : labels[i]) count[l]++;
    }
    std::vector<int> out;
    if (arrow == std::string::npos) {
        for (int l = kLetters; l < kLetters + E; ++l) out.push_back(l);
        for (int l = 0; l < kLetters; ++l)
            if (count[l] == 1) out.push_back(l);
    } else {
        Term t = parse_term(eq.substr(arrow + 2), eq);
        out = expand_term(t, t.ellipsis ? E : 0, E);
        for (size_t i = 0; i < out.size(); ++i) {
            if (out[i] < kLetters && count[out[i]] == 0)
                fail(CT_ERR_INVALID_ARGUMENT, "einsum: output subscript '", std::string(1, label_char(out[i])),
                     "' does not appear in the inputs of ", quote_text(equation_in));
            if (std::find(out.begin(), out.begin() + i, out[i]) != out.begin() + i)
                fail(CT_ERR_INVALID_ARGUMENT, "einsum: output subscript '", std::string(1, label_char(out[i])),
                     "' appears more than once in ", quote_text(equation_in));
        }
    }
    // L: output labels first (in output order), then the contracted ones
    std::vector<int> L = out;
    for (auto& ls : labels)
        for (int l : ls)
            if (std::find(L.begin(), L.end(), l) == L.end()) L.push_back(l);
    std::vector<Tensor> ops;
    for (size_t i = 0; i < operands.size(); ++i) {
        Tensor t = take_diagonals(operands[i], labels[i], i);
        ops.push_back(align(t, labels[i], L));
    }
    // needed_after[i][k]: label L[k] is in the output or has size > 1 in an operand after i
    auto needed_after = [&](size_t i) {
        std::vector<bool> need(L.size(), false);
        for (size_t k = 0; k < L.size(); ++k) {
            need[k] = k < out.size();
            for (size_t j = i + 1; j < ops.size(); ++j) need[k] = need[k] || ops[j].sizes()[k] != 1;
        }
        return need;
    };
    Tensor acc = ops[0];
    for (size_t i = 1; i < ops.size(); ++i) {
        Tensor a = acc, b = ops[i];
        if (a.dtype() != b.dtype()) {
            DType common = result_type(a, b);
            a = to_dtype(a, common), b = to_dtype(b, common);
        }
        acc = contract(a, b, needed_after(i), L);
    }
    IntList drop;
    for (size_t k = out.size(); k < L.size(); ++k) drop.push_back((int64_t)k);
    if (!drop.empty()) acc = sum(acc, drop, false);
    return acc.is_same(operands[0]) ? clone(acc) : acc;
}

}  // namespace ct

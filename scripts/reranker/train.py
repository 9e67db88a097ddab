#!/usr/bin/python3
"""Trains the learned reranker of one mode (fast or thorough: their lanes differ) in
engine/retrieve/reranker-model.json from collect-features.ts output, keeping the other mode's model.

A maintainer's tool, not part of the build or the tests: it needs XGBoost (Debian: apt-get install
python3-xgboost; run it with /usr/bin/python3). Two stages per mode: stage 1 scores each candidate from
its features; stage 2, stacked on it, rescores from the features plus stage 1's scores of the candidate
and its thread neighbours (rerank-features.ts stackFeatures), and is trained on out-of-fold stage-1
scores, only on requests whose candidates are all in threads (where the engine applies it). First it
reports nested leave-one-conversation-out frac@10 (each conversation ranked by stages trained without it)
against the fusion's own order, then it trains on everything and writes both stages in the engine's
format (engine/retrieve/gbdt.ts), checking that the engine's tree walk gives XGBoost's margins.

FEATURES may name several files, comma-separated, each as PATH or PATH:WEIGHT (the weight of its rows in
training, default 1): the same questions collected with the turns stored in different forms
(collect-features.ts, TURNS_AS=messages|documents). One model learns them all; the cross-validation holds
a conversation out in every form at once and reports each form on its own. The shipped models:

  /usr/bin/python3 scripts/reranker/train.py fast /tmp/fast.csv,/tmp/fast-docs.csv:0.5 engine/retrieve/reranker-model.json

ENGINE=postgres trains on features collected with ENGINE=postgres (the PostgreSQL engine's ts_rank and
pgvector scores) and names that engine's backends and model id, for engine/retrieve/reranker-model-postgres.json.
"""
import csv
import json
import os
import sys

import numpy as np
import xgboost as xgb

# Chosen by leave-one-conversation-out frac@10 on the LoCoMo dev half (docs/decisions/retrieval.md).
PARAMS = dict(objective='binary:logistic', eta=0.05, max_depth=3, min_child_weight=5, subsample=0.8,
              colsample_bytree=0.8, seed=1, nthread=2)
# Stage 2 is grown with histogram splits: it scores the same as exact splits in the nested estimate and its
# fits are ~12 times faster. Stage 1 keeps exact splits: on histograms it lost ~0.003 on notes.
STAGE2_PARAMS = dict(tree_method='hist')
ROUNDS = 400
# A better rank in any lane, and a stronger lexical or cosine match, may only ever help a candidate. Free
# to learn otherwise from a few hundred questions, a model learns noise; with the constraints it scores
# the same in leave-one-conversation-out (0.8049 against 0.8045 without; constraining the fusion's own
# rank and score too cost 0.007).
INCREASING = {'lexnorm', 'cos'}


def monotone(feats):
    return '(' + ','.join('1' if f in INCREASING or f.startswith('r_') else '0' for f in feats) + ')'
# rerank-features.ts stackFeatureNames and stackMissing: what stage 2 sees besides the features.
STACK_FEATURES = ['s1', 's1_inv_rank', 's1_gap', 's1_nb-2', 's1_nb-1', 's1_nb1', 's1_nb2', 's1_thread_max',
                  's1_nb_max']
MISSING = -8.0
# What collect-features.ts ran with: the depth (RERANK_DEPTH) and the embedder whose cosines it saw.
DEPTH = 150
# Stage 2 rescores only the best STAGE2_DEPTH of a request by stage 1 (reranker.ts, the file's
# stage2_depth); the rest follow them in stage 1's order. From further down stage 2 lifted nothing into
# the top 25 on the dev half (the same frac@5/10/25 in both modes), and its walk of the trees halves.
STAGE2_DEPTH = 80
# Per engine (collect-features.ts ENGINE): the model's id and the lexical and vector backends whose scores
# the features carry (engine/retrieve/backends.ts): the engine stands the model aside on any other, as on
# another embedder. Nothing in the features says which engine recorded them: ENGINE must match.
ENGINES = {
    'local': ('gbdt-rerank-locomo-dev-v4', {'lexical': 'sqlite-fts5/bm25', 'vector': 'sqlite-vec/int8-l2'}),
    'postgres': ('gbdt-rerank-postgres-locomo-dev-v2',
                 {'lexical': 'postgres-tsvector-turns/idf-ts_rank', 'vector': 'pgvector/hnsw-cosine'}),
}
# Added to stage 2's margins to rank its candidates before the rest, as the engine's tiers do.
TIER_LEAD = 1e6
EMBEDDER = 'glove-sif'


# The columns collect-features.ts writes before the features.
META = ['qid', 'conv', 'cat', 'nev', 'label', 'thread', 'i_nb-2', 'i_nb-1', 'i_nb1', 'i_nb2']


def load(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    if head[:len(META)] != META:
        sys.exit(f'{path}: not what collect-features.ts writes (columns {",".join(META)}, then the features)')
    feats = head[len(META):]
    qid = np.array([int(r[0]) for r in body])
    conv = np.array([r[1] for r in body])
    cat = {int(r[0]): int(r[2]) for r in body}
    nev = {int(r[0]): int(r[3]) for r in body}
    y = np.array([int(r[4]) for r in body])
    thread = np.array([int(r[5]) for r in body])
    nbr = np.array([[int(v) for v in r[6:10]] for r in body])
    x = np.array([[float(v) for v in r[len(META):]] for r in body], dtype=np.float32)
    return feats, qid, conv, cat, nev, y, x, thread, nbr


def frac_at_10(mask, scores, qid, y, nev):
    """Mean over questions of the share of evidence turns in the 10 best by score (evidence beyond the
    reranked candidates counts as missed, as it is)."""
    vals = []
    for q in np.unique(qid[mask]):
        m = mask & (qid == q)
        order = np.argsort(-scores[m], kind='stable')[:10]
        vals.append(y[m][order].sum() / nev[q])
    return float(np.mean(vals)), len(vals)


def train(x, y, weight, mask, feats, extra=None):
    params = dict(PARAMS, **(extra or {}), monotone_constraints=monotone(feats))
    return xgb.train(params, xgb.DMatrix(x[mask], label=y[mask], weight=weight[mask]), ROUNDS)


def base_margin(bst):
    """The margin every prediction starts from: logit(base_score) for binary:logistic (0 with XGBoost
    1.x's fixed 0.5; XGBoost 2 estimates base_score from the labels)."""
    p = float(json.loads(bst.save_config())['learner']['learner_model_param']['base_score'])
    return float(np.log(p / (1 - p)))


def to_engine(bst, feats):
    trees = []
    for text in bst.get_dump(dump_format='json'):
        root = json.loads(text)
        nodes = []

        def walk(n):
            i = len(nodes)
            if 'leaf' in n:
                nodes.append({'leaf': n['leaf']})
                return i
            nodes.append(None)
            kids = {c['nodeid']: c for c in n['children']}
            yes = walk(kids[n['yes']])
            no = walk(kids[n['no']])
            nodes[i] = {'feature': int(n['split'][1:]), 'threshold': float(np.float32(n['split_condition'])),
                        'yes': yes, 'no': no}
            return i

        walk(root)
        trees.append(nodes)
    return {'format': 'mnemo-gbdt/1', 'features': feats, 'base_margin': base_margin(bst), 'trees': trees}


def load_all(srcs):
    """Several feature files (PATH or PATH:WEIGHT) as one set: question ids made distinct per file, each
    row's file and training weight kept."""
    paths = [s.rsplit(':', 1)[0] if ':' in s else s for s in srcs]
    weights = [float(s.rsplit(':', 1)[1]) if ':' in s else 1.0 for s in srcs]
    parts = [load(p) for p in paths]
    feats = parts[0][0]
    if any(p[0] != feats for p in parts):
        sys.exit('feature files disagree on the features')
    offset = [i * 1_000_000 for i in range(len(parts))]
    if any(p[1].max() >= 1_000_000 for p in parts):
        sys.exit('a feature file has a question id of 1,000,000 or more; the ids of several files would clash')
    qid = np.concatenate([p[1] + o for p, o in zip(parts, offset)])
    nev = {q + o: n for p, o in zip(parts, offset) for q, n in p[4].items()}
    form = np.concatenate([np.full(len(p[5]), i) for i, p in enumerate(parts)])
    weight = np.concatenate([np.full(len(p[5]), w, dtype=np.float32) for p, w in zip(parts, weights)])
    conv, y, x, thread, nbr = (np.concatenate([p[k] for p in parts]) for k in (2, 5, 6, 7, 8))
    return feats, qid, conv, nev, y, x, form, weight, thread, nbr


def questions(qid):
    """Each question's rows (indices into the set), in the file's order: the fusion's, as the engine has them."""
    rows = {}
    for i, q in enumerate(qid):
        rows.setdefault(q, []).append(i)
    return {q: np.array(r) for q, r in rows.items()}


def stage2_rows(qrows, s1):
    """The rows stage 2 rescores: each question's best STAGE2_DEPTH by s1 (ties: the first in the file)."""
    top = np.zeros(len(s1), dtype=bool)
    for idx in qrows.values():
        top[idx[np.argsort(-s1[idx], kind='stable')][:STAGE2_DEPTH]] = True
    return top


def stack_features(qrows, s, thread, nbr):
    """rerank-features.ts stackFeatures for every question: from the stage-1 margins s (one per row) of a
    question's candidates, per candidate: s, 1 / its place by s (ties: the fused order), s minus the
    question's best, the s of its neighbours at -2, -1, +1, +2 (MISSING if not among the candidates), the
    best s of the other candidates in its thread (MISSING if none) and the best of the four neighbours'."""
    out = np.zeros((len(s), len(STACK_FEATURES)))
    for idx in qrows.values():
        sc = s[idx]
        place = np.empty(len(idx))
        place[np.argsort(-sc, kind='stable')] = np.arange(1, len(idx) + 1)
        th = thread[idx]
        for k, i in enumerate(idx):
            nb = [sc[j] if j >= 0 else MISSING for j in nbr[i]]
            same = sc[(th == th[k]) & (np.arange(len(idx)) != k)] if th[k] >= 0 else []
            out[i] = [sc[k], 1.0 / place[k], sc[k] - sc.max(), *nb, max(same, default=MISSING), max(nb)]
    return out


def walk(model, row):
    """The engine's tree walk (gbdt.ts): splits compared in float32, leaves summed in float64 in tree order."""
    got = model['base_margin']
    for tree in model['trees']:
        i = 0
        while 'leaf' not in tree[i]:
            n = tree[i]
            i = n['yes'] if np.float32(row[n['feature']]) < np.float32(n['threshold']) else n['no']
        got += tree[i]['leaf']
    return got


def check_export(bst, model, x, rows):
    """The engine's tree walk (replayed here) must give XGBoost's own margins."""
    margins = bst.predict(xgb.DMatrix(x[rows]), output_margin=True)
    for row, want in zip(x[rows], margins):
        got = walk(model, row)
        if abs(got - want) > 1e-4:
            sys.exit(f'export check failed: {got} != {want}')
    return margins


def main(mode, src, dst):
    engine = os.environ.get('ENGINE', 'local')
    if mode not in ('fast', 'thorough') or engine not in ENGINES:
        sys.exit('usage: [ENGINE=local|postgres] train.py fast|thorough FEATURES.csv[,FEATURES.csv...] MODEL.json')
    model_id, backends = ENGINES[engine]
    srcs = src.split(',')
    feats, qid, conv, nev, y, x, form, weight, thread, nbr = load_all(srcs)
    feats2 = feats + STACK_FEATURES
    qrows = questions(qid)
    # Stage 2 applies (in the engine: reranker.ts stage2Applies) where every candidate is in a thread.
    applies = np.zeros(len(y), dtype=bool)
    for idx in qrows.values():
        applies[idx] = (thread[idx] >= 0).all()
    fused_order = -x[:, feats.index('frank')]
    convs = sorted(set(conv))

    fits = {}

    def stage1_without(held):
        """Stage 1 trained on every conversation but `held` (a frozenset), cached: (c, d) is (d, c)."""
        if held not in fits:
            fits[held] = train(x, y, weight, ~np.isin(conv, list(held)), feats)
        return fits[held]

    def predict(bst, mask):
        return bst.predict(xgb.DMatrix(x[mask]), output_margin=True)

    def stage2(s1, mask):
        x2 = np.hstack([x, stack_features(qrows, s1, thread, nbr)]).astype(np.float32)
        return train(x2, y, weight, mask & applies, feats2, STAGE2_PARAMS), x2

    # Nested leave-one-conversation-out: conversation c ranked by stage 1 trained without it, then by stage
    # 2 trained without it on out-of-fold stage-1 margins (each other conversation d's margins from a
    # stage 1 trained without c and d), as the final stage 2 is trained on margins of a stage 1 that
    # never saw the conversation.
    totals = {f: np.zeros(4) for f in range(len(srcs))}
    # CROSS_VALIDATE=0 skips the estimate (its 10 extra stage-1 fits and 5 stage-2 fits): to write a model
    # whose settings were already measured, on a machine too busy for both.
    cross_validate = os.environ.get('CROSS_VALIDATE', '1') != '0'
    for c in convs if cross_validate else []:
        test = conv == c
        s1 = np.zeros(len(y))
        s1[test] = predict(stage1_without(frozenset([c])), test)
        for d in convs:
            if d != c:
                s1[conv == d] = predict(stage1_without(frozenset([c, d])), conv == d)
        b2, x2 = stage2(s1, ~test)
        final = s1.copy()
        m = test & applies & stage2_rows(qrows, s1)
        if m.any():
            # In float64: XGBoost's float32 margins plus the lead would keep only steps of 1/16.
            final[m] = b2.predict(xgb.DMatrix(x2[m]), output_margin=True).astype(np.float64) + TIER_LEAD
        for f, t in totals.items():
            mk = test & (form == f)
            b, n = frac_at_10(mk, fused_order, qid, y, nev)
            r1, _ = frac_at_10(mk, s1, qid, y, nev)
            r2, _ = frac_at_10(mk, final, qid, y, nev)
            print(f'{c} ({srcs[f]}): {n} questions, frac@10 fusion {b:.4f}, stage 1 {r1:.4f}, '
                  f'stage 2 {r2:.4f} (trained on the others)', flush=True)
            t += [b * n, r1 * n, r2 * n, n]
    for f, (b, r1, r2, n) in totals.items() if cross_validate else []:
        print(f'all ({srcs[f]}): leave-one-conversation-out frac@10 fusion {b / n:.4f}, stage 1 {r1 / n:.4f}, '
              f'stage 2 {r2 / n:.4f}')

    bst = stage1_without(frozenset())
    model = to_engine(bst, feats)
    rows = np.random.default_rng(1).choice(len(y), size=min(5000, len(y)), replace=False)
    margins = check_export(bst, model, x, rows)
    # Stage 2 on every conversation's out-of-fold stage-1 margins (from stage 1 trained without it).
    oof = np.zeros(len(y))
    for c in convs:
        oof[conv == c] = predict(stage1_without(frozenset([c])), conv == c)
    b2, x2 = stage2(oof, np.ones(len(y), dtype=bool))
    model2 = to_engine(b2, feats2)
    check_export(b2, model2, x2, rows[applies[rows]])
    try:
        with open(dst) as f:
            out = json.load(f)
    except FileNotFoundError:
        out = {'id': model_id, 'models': {}}
    if out.get('id') != model_id:
        out = {'id': model_id, 'models': {}}  # another version's models: the other mode must be retrained
    out.update(id=model_id, depth=DEPTH, stage2_depth=STAGE2_DEPTH, embedder=EMBEDDER, backends=backends)
    out['models'][mode] = {'stage1': model, 'stage2': model2}
    # A few rows with XGBoost's stage-1 margins, for the engine's tests to replay (engine/retrieve/reranker.test.ts).
    out['checks'] = [c for c in out.get('checks', []) if c['mode'] != mode] + [
        {'mode': mode, 'x': [float(v) for v in x[r]], 'margin': float(m)} for r, m in zip(rows[:8], margins[:8])]
    # Whole requests: the engine's stage-1 margins (its walk, replayed here), the stacked features from
    # them and XGBoost's stage-2 margins; one where stage 2 applies and, if any, one where it does not.
    checks = []
    for want in (True, False):
        qs = [q for q, idx in qrows.items() if applies[idx[0]] == want and len(idx) >= 20]
        if not qs:
            continue
        idx = qrows[qs[len(qs) // 2]]
        s1 = np.array([walk(model, x[i]) for i in idx])
        sub = {0: np.arange(len(idx))}
        local = nbr[idx]  # collect-features.ts writes -1 for none
        feats_s = stack_features(sub, s1, thread[idx], local)
        final = s1
        if want:
            s2 = b2.predict(xgb.DMatrix(np.hstack([x[idx], feats_s]).astype(np.float32)), output_margin=True)
            final = np.where(stage2_rows(sub, s1), s2, s1)
        checks.append({'mode': mode, 'rows': [[float(v) for v in x[i]] for i in idx],
                       'neighbours': local.tolist(),
                       'threads': [f't{t}' if t >= 0 else None for t in thread[idx]],
                       'stage1': [float(v) for v in s1], 'stage2_applies': want, 'final': [float(v) for v in final]})
    out['request_checks'] = [c for c in out.get('request_checks', []) if c['mode'] != mode] + checks
    with open(dst, 'w') as f:
        json.dump(out, f, separators=(',', ':'))
        f.write('\n')
    print(f'wrote the {mode} models into {dst}: {len(model["trees"])} + {len(model2["trees"])} trees')


if __name__ == '__main__':
    main(*sys.argv[1:4])

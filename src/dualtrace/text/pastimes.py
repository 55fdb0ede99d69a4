"""Pastimes: the sports and hobbies people do, in English and Chinese, as plain words.

One list serves two readers. The catalogue's `exercise`, `hobby` and `instrument`
attributes (`text/slots/people.py`) read a pastime said beside what one does with it ("we
play padel", "报了个陶艺班") through `alternation`; and a question that asks every pastime of
someone ("What activities does she do?", "我都有哪些爱好？", `aggregate_cues.asked_type`) is
answered from every turn that names one (`PASTIME_TERMS`, the retriever's "type" channel),
whatever else it shares with the question's words.

    >>> import re
    >>> bool(re.fullmatch(alternation(("muay thai",)), "muay  thai"))
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def _listed(text: str) -> tuple[str, ...]:
    """The comma-separated words of `text`, in order, spaces inside one made single."""
    return tuple(" ".join(w.split()) for w in text.split(",") if w.strip())


# Sports and exercise, each as one says one does it ("swimming", "a half marathon").
SPORTS_EN = _listed(
    """
    pilates, yoga, crossfit, spin, boxing, swimming, running, climbing, bouldering, barre, soccer,
    hiit, zumba, karate, judo, jiu-jitsu, tennis, padel, squash, netball, football, rugby,
    rowing, cycling, triathlon, parkrun, 5-a-side, kickboxing, muay thai, fencing, archery,
    salsa, hockey, basketball, volleyball, badminton, golf, skiing, snowboarding, surfing,
    ultimate frisbee, frisbee, hiking, skating, lacrosse, baseball, softball, cricket,
    pickleball, handball, half marathons, half marathon, marathons, marathon, trail running,
    weightlifting, powerlifting, spinning, dance, dancing, ballet, taekwondo, kung fu, aikido,
    wrestling, mountaineering, rock climbing, kayaking, canoeing, sailing, windsurfing,
    kitesurfing, paddleboarding, scuba diving, snorkelling, snorkeling, horse riding,
    horseback riding, ice skating, jogging, strength training, weight training,
    circuit training, lawn bowls, bowls, gaelic football, hurling, camogie, couch to 5k
    """
)
SPORTS_ZH = _listed(
    """
    跑步, 游泳, 瑜伽, 健身, 骑车, 骑行, 撸铁, 爬山, 徒步, 羽毛球, 篮球, 足球, 网球, 乒乓球,
    排球, 飞盘, 冲浪, 攀岩, 抱石, 滑雪, 普拉提, 拳击, 搏击, 马拉松, 跳舞, 舞蹈, 划船, 桨板,
    高尔夫, 跳绳, 快走, 太极拳, 太极, 匹克球, 壁球, 橄榄球, 棒球, 垒球, 台球, 保龄球, 滑板, 轮滑,
    广场舞, 夜跑, 晨跑, 跆拳道, 空手道, 柔道, 击剑, 射箭, 潜水, 浮潜, 皮划艇, 帆船, 骑马, 滑冰,
    登山, 冬泳, 八段锦, 气功, 动感单车, 尊巴
    """
)
# Pastimes that are no sport, each a word one does ("I love baking", 喜欢烘焙).
HOBBIES_EN = _listed(
    """
    baking, photography, pottery, ceramics, crochet, knitting, sewing, embroidery, painting,
    drawing, sketching, gardening, chess, woodworking, journaling, birdwatching, bird watching,
    birding, fishing, camping, calligraphy, quilting, origami, scrapbooking, board games,
    stargazing, bouldering, woodcarving, jigsaws, jigsaw puzzles, video games, gaming,
    watercolour, watercolor, watercolours, watercolors
    """
)
HOBBIES_ZH = _listed(
    """
    烘焙, 摄影, 拍照, 画画, 书法, 钩针, 编织, 织毛衣, 陶艺, 剧本杀, 桌游, 钓鱼, 露营, 唱歌,
    园艺, 插花, 手工, 拼图, 乐高, 下棋, 围棋, 象棋, 手账, 烹饪, 观鸟, 刺绣, 十字绣, 插画, 素描,
    油画, 水彩, 打游戏, 玩游戏, 木工, 篆刻, 古琴
    """
)

# Instruments one plays ("learning the cello", 学古筝); those that name other things too
# ("my keyboard died", 鼓励) are a pastime only beside what one does with them.
INSTRUMENTS_EN = _listed(
    """
    piano, guitar, violin, cello, drums, ukulele, flute, saxophone, sax, bass, trumpet, harp,
    clarinet, keyboard, erhu, guzheng, fiddle, banjo, mandolin, accordion, oboe, trombone,
    bagpipes, harmonica
    """
)
INSTRUMENTS_ZH = _listed(
    """
    钢琴, 吉他, 小提琴, 大提琴, 尤克里里, 长笛, 萨克斯, 贝斯, 古筝, 二胡, 琵琶, 架子鼓, 鼓, 葫芦丝,
    竹笛, 笛子, 口琴, 手风琴, 扬琴
    """
)
_NOT_ALONE = frozenset({"sax", "bass", "keyboard", "鼓"})


def alternation(words: Iterable[str]) -> str:
    """A regex group matching any of `words`, in their order, a space matching any run of
    spaces and a hyphen a hyphen or a space ("jiu jitsu")."""
    parts = (re.escape(w).replace(r"\ ", r"\s+").replace(r"\-", r"[-\s]") for w in words)
    return "(?:" + "|".join(parts) + ")"


_ALONE_EN = [w for w in (*SPORTS_EN, *HOBBIES_EN, *INSTRUMENTS_EN) if w not in _NOT_ALONE]
_ALONE_ZH = [w for w in (*SPORTS_ZH, *HOBBIES_ZH, *INSTRUMENTS_ZH) if w not in _NOT_ALONE]
#: Every pastime's words that name one alone, for a full-text search that finds any of them.
PASTIME_TERMS: tuple[str, ...] = tuple(dict.fromkeys((*_ALONE_EN, *_ALONE_ZH)))

_NAMED = re.compile(rf"\b{alternation(_ALONE_EN)}\b|{alternation(_ALONE_ZH)}", re.I)


def named(text: str) -> frozenset[str]:
    """The pastimes `text` names, casefolded, spaces as one ("I'm off to go swimming":
    {"swimming"})."""
    return frozenset(" ".join(m.group().casefold().split()) for m in _NAMED.finditer(text))

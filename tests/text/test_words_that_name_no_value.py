"""Words a frame takes that name no value of the attribute: an opinion where an amount goes
("rent is a killer"), a word of the dictionary where a name goes ("my manager is a
saint"), a time where a school goes ("I study at night"), a clause after a verb ("long
drives i get sleepy"), a Chinese verb where a name goes ("跟男朋友聊聊", "我想想"); and whose a
value is when a participle goes on about a relative ("my daughter Mia, turning 5") or a
named person has it ("priyanka is allergic to shellfish")."""

from __future__ import annotations

import pytest

from dualtrace.text.slots import atomic_clauses, find_statements
from dualtrace.text.slots.names import addressed_name


def _said(text: str, attribute: str) -> list[tuple[str | None, str | None]]:
    return [
        (s.value, s.subject)
        for clause in atomic_clauses(text)
        for s in find_statements(clause)
        if s.attribute == attribute
    ]


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Rent is a killer in this city", "rent"),
        ("my manager is a saint for covering for me", "manager"),
        ("my climbing gym is shut for the holidays", "gym"),
        ("I study at night once the kids are down", "studies_at"),
        ("I work at weekends too", "works_at"),
        ("I should drink more tea instead of energy drinks", "drink"),
        ("on long drives i get sleepy so I stop a lot", "vehicle"),
        ("我的车有点抖", "vehicle"),
        ("我们球队周六还有一场比赛", "team"),
        ("我挺心动的 但才入职两个月", "works_at"),
        ("晚点跟男朋友聊聊吧", "partner"),
        ("我想想 谢谢", "name"),
        ("我儿子初二了", "family"),
        ("他粤语能听懂", "language"),
        ("这本书是我自己的", "from"),
        ("我们公司这边加班多", "lives_in"),
        ("回国入职一周了", "works_at"),  # which way one came, no employer
        ("我老婆用iPhone 嫌我的安卓卡", "partner"),  # what a person uses is no name
        ("我不吃香菜", "diet"),  # a dislike, no diet
        ("宝宝出生啦！七斤二两", "family"),  # the baby, no name
        ("I'm a member of the rowing club", "occupation"),  # one belongs, no trade
        ("I'm a keen runner", "occupation"),
    ],
)
def test_words_that_name_no_value(text: str, attribute: str) -> None:
    assert _said(text, attribute) == []


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("my rent is 980 a month", "rent", "980 a month"),
        ("our budget is about three grand", "budget", "three grand"),
        ("my new boss is Dana", "manager", "Dana"),
        ("the move is May 2027 at the earliest", "plan", "May 2027"),
        ("我开一辆2019年的本田雅阁", "vehicle", "2019年的本田雅阁"),
        ("我男朋友叫晴晴", "partner", "晴晴"),
        ("我叫雨桐", "name", "雨桐"),
        ("房租有三千五", "rent", "三千五"),
        ("I've been a plumber for nine years", "occupation", "plumber"),  # a trade held
        ("ive been an electrician since 2015", "occupation", "electrician"),
        ("the pollen sets off my hay fever every May", "health", "hay fever"),  # one's own
        ("my kia sportage needs new tyres", "vehicle", "kia sportage"),  # a make in lower case
        ("外孙小宝上幼儿园了", "family", "外孙小宝"),
        ("孙子浩浩周末来吃饭", "family", "孙子浩浩"),  # a doubled name, though a word too
        ("we moved to Porto I think in April", "lives_in", "Porto"),  # the speaker's own clause
        ("our vizsla Pepper keeps stealing socks", "pet", "vizsla Pepper"),  # a breed as kind
        ("my Persian Duchess won't eat her food", "pet", "Persian Duchess"),
        ("I take the MRT from Bishan now", "commute", "MRT"),  # from where, then now
        ("it's the ferry for me these days", "commute", "ferry"),
        ("韩语现在能听懂一半了", "language", "韩语"),  # the language first, then how it goes
        ("西班牙语我报了个周末班", "language", "西班牙语"),
        ("过年回洛阳老家住了一周", "from", "洛阳"),  # a place and its word for home
        ("我广东汕头的 来上海读书", "from", "汕头"),
        ("我们余杭这边地铁挺方便", "lives_in", "余杭"),  # where we are, said as ours
        ("I finally got the Samsung A35 last week", "phone", "Samsung A35"),  # a phone's make
        ("屏幕碎了 换了荣耀200 还挺好用", "phone", "荣耀200"),
        ("总算提了Model 3", "vehicle", "Model 3"),  # a car by its model
        ("CRV提车两周了", "vehicle", "CRV"),
        ("been dating someone since June, her name's Ines", "partner", "Ines"),
        ("Rafa and I have been together two years", "partner", "Rafa"),
        ("still single lol", "partner", "single"),
        ("日语现在N3了", "language", "日语"),
        ("we eat halal at home", "diet", "halal"),
        ("我们家不吃猪肉", "diet", "不吃猪肉"),
        ("i'm a plasterer with Hale Interiors in Leeds", "works_at", "Hale Interiors"),
        ("上个月从前台调到了人事专员", "occupation", "人事专员"),  # a post moved to
        ("拿到offer了，杭州一家游戏公司，原画师岗", "occupation", "原画师"),
        ("signed up at a boxing gym near work", "exercise", "boxing"),  # a gym of a sport
        ("squash is going really well, two wins", "exercise", "squash"),
        ("ok netball update: we won the league", "exercise", "netball"),
        ("上个月加入了公司的羽毛球队", "exercise", "羽毛球"),
        # a Latin name typed between spaces in Chinese, its words kept together
        ("在 Morgan Stanley 上班两年了", "works_at", "Morgan Stanley"),
        ("上周搬到 Notting Hill 了", "lives_in", "Notting Hill"),
        ("女儿 Mia 今年六岁", "family", "女儿 Mia"),
        ("two months off the booze now", "given_up", "off the booze"),
        ("去年转行做室内设计了", "occupation", "室内设计"),
        ("been going to a judo dojo after work", "exercise", "judo"),
        ("offer终于定了 华为深圳 测试工程师 下月入职", "works_at", "华为深圳"),  # an offer's news
        ("收到offer了！宁德时代 电池工程师", "occupation", "电池工程师"),
        ("最后还是换了手机 荣耀 Magic6 挺好用", "phone", "荣耀 Magic6"),
        ("女儿出生了！六斤八两 叫朵朵", "family", "女儿 朵朵"),  # born, weighed, then named
        ("joined a gym near the office", "exercise", "gym"),
        ("doing more of a low-carb thing now", "diet", "low-carb"),
        ("拿到Shopee的offer了！product designer 下月入职", "occupation", "product designer"),
        ("我三月十五号正式退休了", "occupation", "退休"),
        ("经理让我升了销售主管", "occupation", "销售主管"),
        ("周末跟同事一起去攀岩 手都磨破了", "exercise", "攀岩"),
        ("网球又捡起来了 每周六打", "exercise", "网球"),
        ("每天开卡罗拉去公司", "vehicle", "卡罗拉"),  # a car driven somewhere
        ("现在住滨江的员工宿舍", "lives_in", "滨江"),
        ("我现在上班坐地铁 四十分钟", "commute", "坐地铁"),
        ("开一辆旧的本田飞度", "vehicle", "本田飞度"),
        ("knitting is going really well, two scarves done", "hobby", "knitting"),  # news of it
        ("banjo lessons are going great", "instrument", "banjo"),
        ("二胡学了半年了 还是拉不好", "instrument", "二胡"),
        ("我用的是荣耀X50 电池还行", "phone", "荣耀X50"),  # the phone one uses or bought
        ("终于换手机了！新买的华为P60", "phone", "华为P60"),
        ("我跟男友阿凯周末常去骑车", "partner", "阿凯"),  # 男友 / 女友: 男朋友 / 女朋友
        ("我们家吃全素，蛋奶都不碰", "diet", "全素"),
        ("我吃斋好多年了", "diet", "吃斋"),
    ],
)
def test_values_kept(text: str, attribute: str, value: str) -> None:
    assert _said(text, attribute) == [(value, None)]


@pytest.mark.parametrize(
    ("text", "attribute", "said"),
    [
        # a participle after a relative goes on about them
        ("booking a cake for my daughter Mia, turning 5 next week", "age", [("5", "daughter")]),
        ("I'm 34, turning 35 in May", "age", [("34", None)]),
        # someone named has it: not the speaker's
        ("not me, but priyanka is allergic to shellfish", "health", []),
        ("孙儿初二了，功课多", "grade", [("初二", "孙儿")]),
        ("my dad's diabetes is getting worse", "health", []),
        ("我儿子初二了", "grade", [("初二", "儿子")]),
    ],
)
def test_whose_value(text: str, attribute: str, said: list[tuple[str, str | None]]) -> None:
    assert _said(text, attribute) == said


@pytest.mark.parametrize(
    ("reply", "name"),
    [
        ("好的开始！每天练半小时就够了。", None),  # a good start, no one named
        ("练习加油！下次会更顺。", None),
        ("晓彤加油！你可以的。", "晓彤"),
        ("你好晓彤！先说说你的情况。", "晓彤"),
    ],
)
def test_a_reply_cheers_a_verb_not_a_name(reply: str, name: str | None) -> None:
    assert addressed_name(reply) == name


@pytest.mark.parametrize(
    ("text", "attribute", "value", "ended"),
    [
        # a place that a word which may lead a value opens (台 of 一台) is the place's own
        ("我们现在住台中，离公司很近", "lives_in", "台中", False),
        ("我住在台中", "lives_in", "台中", False),
        # a decision is no employer: the job ends, where is not said
        ("我决定辞职了，想休息半年", "works_at", None, True),
    ],
)
def test_a_lead_word_and_a_verb(text: str, attribute: str, value: str | None, ended: bool) -> None:
    found = [(s.value, s.ended) for s in find_statements(text) if s.attribute == attribute]
    assert found == [(value, ended)]

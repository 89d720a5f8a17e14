//===- InputRespelling.cpp - input the TLX tools respell before parsing ---===//

#include "tlx/Support/InputRespelling.h"

#include "InputLexing.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

#include <vector>

std::optional<std::string>
mlir::tlx::respellLocatedNVVMBarriers(llvm::StringRef text) {
  if (!text.contains("nvvm.barrier "))
    return std::nullopt;
  // indent, `id = %a`, `number_of_threads = %b`, then the location.
  static const llvm::Regex located(
      "^([ \t]*)nvvm\\.barrier( id = (%[^ ,]+))?( number_of_threads = "
      "(%[^ ,]+))?( loc\\(.*)$");
  std::string out;
  out.reserve(text.size() + 64);
  bool changed = false;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    bool hasNewline = line.size() < text.size();
    text = rest;
    llvm::SmallVector<llvm::StringRef, 7> parts;
    if (!located.match(line, &parts)) {
      out += line;
    } else {
      changed = true;
      bool hasId = !parts[2].empty(), hasCount = !parts[4].empty();
      std::string operands, types;
      for (auto [present, value] :
           {std::pair{hasId, parts[3]}, std::pair{hasCount, parts[5]}}) {
        if (!present)
          continue;
        operands += (operands.empty() ? "" : ", ") + value.str();
        types += types.empty() ? "i32" : ", i32";
      }
      out += parts[1].str() + "\"nvvm.barrier\"(" + operands +
             ") <{operandSegmentSizes = array<i32: " + (hasId ? "1" : "0") +
             ", " + (hasCount ? "1" : "0") + ", 0>}> : (" + types + ") -> ()" +
             parts[6].str();
    }
    if (hasNewline)
      out += '\n';
  }
  if (!changed)
    return std::nullopt;
  return out;
}

namespace {

using mlir::tlx::lexing::findClosingParen;
using mlir::tlx::lexing::skipSpace;
using mlir::tlx::lexing::skipString;

bool isNameStart(char c) {
  return llvm::isAlpha(c) || c == '$' || c == '.' || c == '_' || c == '-';
}

/// The length of the SSA name (MLIR's suffix-id) at `pos`; 0 where none is.
size_t nameLengthAt(llvm::StringRef text, size_t pos) {
  size_t end = pos;
  if (end < text.size() && llvm::isDigit(text[end])) {
    while (end < text.size() && llvm::isDigit(text[end]))
      ++end;
  } else if (end < text.size() && isNameStart(text[end])) {
    while (end < text.size() &&
           (isNameStart(text[end]) || llvm::isDigit(text[end])))
      ++end;
  }
  return end - pos;
}

/// What a `%name` in the input does there.
enum class NameRole {
  Use,
  /// An op result (`%a, %b:2 = ...` outside parentheses) or a block label's
  /// argument (`^bb1(%a: f32):`): the definitions the parser resolves an
  /// earlier use of the name to.
  Definition,
  /// `(%a: f32)` or `(%a = %init)` before a region (a function's or a
  /// loop's arguments): defined for the region that follows, and checked by
  /// the parser to be unused before.
  RegionArgument,
};

/// One `%name` in the input.
struct NameOccurrence {
  size_t offset; // of the name, past the `%`
  size_t length;
  unsigned region; // the innermost `{...}` around it; 0 is the top level
  NameRole role;
  /// Where the name is visible from here on: `region`, but for a region
  /// argument the region that follows it.
  unsigned scope;
};

/// Every SSA name of `text` with the brace region it stands in: a lexical
/// reading (strings and comments skipped), enough to tell where a name is
/// defined and where used, not a parse.
class NameScan {
public:
  explicit NameScan(llvm::StringRef text) : text(text) { scan(); }

  /// Whether region `outer` is `inner` or contains it.
  bool encloses(unsigned outer, unsigned inner) const {
    while (depth[inner] > depth[outer])
      inner = parent[inner];
    return inner == outer;
  }

  llvm::StringRef text;
  std::vector<unsigned> parent{0}, depth{0};
  llvm::StringMap<std::vector<NameOccurrence>> occurrences;

private:
  void record(size_t offset, size_t length, NameRole role) {
    std::vector<NameOccurrence> &list =
        occurrences[text.substr(offset, length)];
    list.push_back(
        {offset, length, openRegions.back(), role, openRegions.back()});
    if (role == NameRole::RegionArgument)
      argumentsAwaitingRegion.back().push_back({&list, list.size() - 1});
  }

  /// At the `%` of a name outside any parentheses: the list of names it
  /// starts (`, %name`s, each with an optional `:N` count) is a result list
  /// when `=` follows it, uses otherwise. Returns where scanning resumes.
  size_t scanName(size_t percent) {
    size_t length = nameLengthAt(text, percent + 1);
    if (length == 0)
      return percent + 1;
    if (parenDepth.back() != 0) {
      // `(%a: f32` declares an argument, and so does `(%a = %init` (loop
      // arguments); a use is never followed by either.
      size_t next = skipSpace(text, percent + 1 + length);
      size_t type = skipSpace(text, next + 1);
      bool argument =
          next < text.size() &&
          (text[next] == '=' || (text[next] == ':' && type < text.size() &&
                                 !llvm::isDigit(text[type])));
      record(percent + 1, length,
             argument ? NameRole::RegionArgument : NameRole::Use);
      return percent + 1 + length;
    }
    llvm::SmallVector<std::pair<size_t, size_t>, 4> names{
        {percent + 1, length}};
    size_t pos = skipSpace(text, percent + 1 + length);
    while (true) {
      if (pos < text.size() && text[pos] == ':') {
        size_t count = skipSpace(text, pos + 1);
        if (count >= text.size() || !llvm::isDigit(text[count]))
          break;
        while (count < text.size() && llvm::isDigit(text[count]))
          ++count;
        pos = skipSpace(text, count);
      }
      if (pos >= text.size() || text[pos] != ',')
        break;
      size_t next = skipSpace(text, pos + 1);
      size_t nextLength = next < text.size() && text[next] == '%'
                              ? nameLengthAt(text, next + 1)
                              : 0;
      if (nextLength == 0)
        break;
      names.push_back({next + 1, nextLength});
      pos = skipSpace(text, next + 1 + nextLength);
    }
    bool results = pos < text.size() && text[pos] == '=';
    for (auto [offset, nameLength] : names)
      record(offset, nameLength,
             results ? NameRole::Definition : NameRole::Use);
    // Past the whole list: a tail of it is never a result list either.
    return names.back().first + names.back().second;
  }

  /// At a `^`: a block label's argument list (`^bb1(...):`) records its
  /// names as definitions, a successor's operand list (`^bb1(%a : f32)`) as
  /// uses.
  size_t scanCaret(size_t caret) {
    size_t afterName = caret + 1 + nameLengthAt(text, caret + 1);
    size_t open = skipSpace(text, afterName);
    if (open >= text.size() || text[open] != '(')
      return afterName;
    // No block label's arguments hold another label: stopping at one keeps
    // unbalanced input linear.
    size_t close = findClosingParen(text, open, /*stop=*/'^');
    if (close == llvm::StringRef::npos)
      return afterName;
    size_t colon = skipSpace(text, close + 1);
    NameRole role = colon < text.size() && text[colon] == ':'
                        ? NameRole::Definition
                        : NameRole::Use;
    for (size_t pos = open + 1; pos < close;) {
      if (text[pos] == '"') {
        pos = skipString(text, pos);
        continue;
      }
      size_t length = text[pos] == '%' ? nameLengthAt(text, pos + 1) : 0;
      if (length != 0)
        record(pos + 1, length, role);
      pos += 1 + length;
    }
    return close + 1;
  }

  /// Whether the `{` at `pos` opens `attributes {...}` or `<{...}>`, not the
  /// region that region arguments before it belong to.
  bool opensAttributeDictionary(size_t pos) const {
    llvm::StringRef before = text.take_front(pos).rtrim();
    return before.ends_with("attributes") || before.ends_with("<");
  }

  void scan() {
    for (size_t pos = 0; pos < text.size();) {
      switch (text[pos]) {
      case '"':
        pos = skipString(text, pos);
        continue;
      case '/':
        if (text.substr(pos).starts_with("//")) {
          pos = text.find('\n', pos);
          continue;
        }
        break;
      case '{':
        parent.push_back(openRegions.back());
        depth.push_back(depth[openRegions.back()] + 1);
        openRegions.push_back(parent.size() - 1);
        if (!opensAttributeDictionary(pos)) {
          for (auto [list, index] : argumentsAwaitingRegion.back())
            (*list)[index].scope = openRegions.back();
          argumentsAwaitingRegion.back().clear();
        }
        argumentsAwaitingRegion.emplace_back();
        parenDepth.push_back(0);
        break;
      case '}':
        if (openRegions.size() > 1) {
          openRegions.pop_back();
          argumentsAwaitingRegion.pop_back();
          parenDepth.pop_back();
        }
        break;
      case '(':
      case '[':
        ++parenDepth.back();
        break;
      case ')':
      case ']':
        if (parenDepth.back() != 0)
          --parenDepth.back();
        break;
      case '%':
        pos = scanName(pos);
        continue;
      case '^':
        pos = scanCaret(pos);
        continue;
      default:
        break;
      }
      ++pos;
    }
  }

  std::vector<unsigned> openRegions{0};
  std::vector<unsigned> parenDepth{0};
  /// Per open region: its region arguments not yet followed by a `{`.
  std::vector<std::vector<std::pair<std::vector<NameOccurrence> *, size_t>>>
      argumentsAwaitingRegion{1};
};

/// The regions where a name's occurrences must be renamed: each holds a
/// definition that the parser would resolve an earlier use of the name
/// outside that region to.
llvm::DenseSet<unsigned>
findRegionsToRename(const NameScan &scan,
                    llvm::ArrayRef<NameOccurrence> occurrences) {
  llvm::DenseSet<unsigned> regions;
  llvm::DenseSet<unsigned> visibleIn;
  std::optional<unsigned> undefinedUseRegion;
  for (const NameOccurrence &occurrence : occurrences) {
    if (occurrence.role == NameRole::Definition && undefinedUseRegion) {
      if (scan.encloses(occurrence.region, *undefinedUseRegion))
        undefinedUseRegion.reset();
      else
        regions.insert(occurrence.region);
    } else if (occurrence.role == NameRole::Use && !undefinedUseRegion) {
      // Generous: any earlier occurrence in a region still open counts as a
      // definition in scope, so only a use nothing could define is tracked.
      bool inScope = false;
      for (unsigned region = occurrence.region;; region = scan.parent[region]) {
        inScope = visibleIn.contains(region);
        if (inScope || region == 0)
          break;
      }
      if (!inScope)
        undefinedUseRegion = occurrence.region;
    }
    visibleIn.insert(occurrence.scope);
  }
  return regions;
}

/// Names not in the input, each handed out once: of the length asked for,
/// or longer once those run out.
class UnusedNames {
public:
  explicit UnusedNames(llvm::StringSet<> taken) : taken(std::move(taken)) {}

  std::string take(size_t length) {
    for (;; ++length) {
      std::string &candidate = nextCandidate[length];
      if (candidate.empty())
        candidate.assign(length, letters.front());
      while (candidate.size() == length) {
        std::string name = candidate;
        advance(candidate);
        if (taken.insert(name).second)
          return name;
      }
    }
  }

private:
  static constexpr llvm::StringLiteral letters =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

  /// The next name of the same length in letter order; one letter longer
  /// once past the last.
  static void advance(std::string &name) {
    size_t digit = name.size();
    while (digit > 0 && name[digit - 1] == letters.back())
      name[--digit] = letters.front();
    if (digit == 0)
      name.push_back(letters.front());
    else
      name[digit - 1] = letters[letters.find(name[digit - 1]) + 1];
  }

  llvm::StringSet<> taken;
  llvm::DenseMap<size_t, std::string> nextCandidate;
};

} // namespace

std::optional<std::string>
mlir::tlx::respellRegionLocalNames(llvm::StringRef text) {
  if (!text.contains('%'))
    return std::nullopt;
  NameScan scan(text);
  llvm::StringSet<> used;
  for (const auto &entry : scan.occurrences)
    used.insert(entry.getKey());
  UnusedNames unusedNames(std::move(used));

  // A renamed region can hold the same shape again under its new name (a
  // use in it before a definition in a region nested deeper), so each group
  // split off is examined in turn.
  struct NameGroup {
    std::string name;
    bool renamed;
    std::vector<NameOccurrence> occurrences;
  };
  std::vector<NameGroup> worklist;
  for (const auto &entry : scan.occurrences)
    worklist.push_back({entry.getKey().str(), false, entry.getValue()});
  struct Rename {
    size_t offset, length;
    std::string name;
  };
  std::vector<Rename> renames;
  while (!worklist.empty()) {
    NameGroup group = std::move(worklist.back());
    worklist.pop_back();
    llvm::DenseSet<unsigned> regions =
        findRegionsToRename(scan, group.occurrences);
    if (!regions.empty()) {
      // Each occurrence goes with the outermost renamed region around it.
      llvm::DenseMap<unsigned, size_t> groupOfRegion;
      std::vector<NameOccurrence> outside;
      for (const NameOccurrence &occurrence : group.occurrences) {
        std::optional<unsigned> outermost;
        for (unsigned region = occurrence.region;;
             region = scan.parent[region]) {
          if (regions.contains(region))
            outermost = region;
          if (region == 0)
            break;
        }
        if (!outermost) {
          outside.push_back(occurrence);
          continue;
        }
        auto [entry, added] =
            groupOfRegion.try_emplace(*outermost, worklist.size());
        if (added)
          worklist.push_back(
              {unusedNames.take(group.name.size()), /*renamed=*/true, {}});
        worklist[entry->second].occurrences.push_back(occurrence);
      }
      group.occurrences = std::move(outside);
    }
    if (group.renamed)
      for (const NameOccurrence &occurrence : group.occurrences)
        renames.push_back({occurrence.offset, occurrence.length, group.name});
  }
  if (renames.empty())
    return std::nullopt;
  llvm::sort(renames, [](const Rename &a, const Rename &b) {
    return a.offset < b.offset;
  });
  std::string out;
  out.reserve(text.size());
  size_t copied = 0;
  for (const Rename &rename : renames) {
    out += text.slice(copied, rename.offset);
    out += rename.name;
    copied = rename.offset + rename.length;
  }
  out += text.substr(copied);
  return out;
}

std::optional<std::string> mlir::tlx::respellForParsing(llvm::StringRef text) {
  std::optional<std::string> barriers = respellLocatedNVVMBarriers(text);
  std::optional<std::string> names =
      respellRegionLocalNames(barriers ? llvm::StringRef(*barriers) : text);
  return names ? names : barriers;
}

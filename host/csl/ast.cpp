#include "csl/ast.h"

#include <fmt/format.h>

namespace tessera::csl {

const char* NodeKindName(NodeKind k) {
  switch (k) {
    case NodeKind::kIntLit:
      return "int";
    case NodeKind::kFloatLit:
      return "float";
    case NodeKind::kStringLit:
      return "string";
    case NodeKind::kBoolLit:
      return "bool";
    case NodeKind::kUndefined:
      return "undefined";
    case NodeKind::kIdent:
      return "ident";
    case NodeKind::kEnumLit:
      return "enumlit";
    case NodeKind::kBuiltinCall:
      return "builtin";
    case NodeKind::kCall:
      return "call";
    case NodeKind::kField:
      return "field";
    case NodeKind::kIndex:
      return "index";
    case NodeKind::kDeref:
      return "deref";
    case NodeKind::kUnary:
      return "unary";
    case NodeKind::kBinary:
      return "binary";
    case NodeKind::kInitList:
      return "init";
    case NodeKind::kFieldInit:
      return "fieldinit";
    case NodeKind::kArrayType:
      return "arraytype";
    case NodeKind::kPtrType:
      return "ptrtype";
    case NodeKind::kFnType:
      return "fntype";
    case NodeKind::kStructType:
      return "struct";
    case NodeKind::kEnumType:
      return "enum";
    case NodeKind::kIfExpr:
      return "ifexpr";
    case NodeKind::kSwitch:
      return "switch";
    case NodeKind::kSwitchCase:
      return "case";
    case NodeKind::kTensorAccess:
      return "tensor";
    case NodeKind::kComptimeExpr:
      return "comptime";
    case NodeKind::kBlock:
      return "block";
    case NodeKind::kVarDecl:
      return "decl";
    case NodeKind::kParam:
      return "param";
    case NodeKind::kFnDecl:
      return "fn";
    case NodeKind::kComptimeBlock:
      return "comptimeblock";
    case NodeKind::kLayoutBlock:
      return "layout";
    case NodeKind::kAssign:
      return "assign";
    case NodeKind::kExprStmt:
      return "expr";
    case NodeKind::kIf:
      return "if";
    case NodeKind::kWhile:
      return "while";
    case NodeKind::kFor:
      return "for";
    case NodeKind::kReturn:
      return "return";
    case NodeKind::kBreak:
      return "break";
    case NodeKind::kContinue:
      return "continue";
    case NodeKind::kFile:
      return "file";
  }
  return "?";
}

std::string Dump(const Node& n) {
  std::string s = fmt::format("({}", NodeKindName(n.kind));
  switch (n.kind) {
    case NodeKind::kIntLit:
      s += fmt::format(" {}", n.ival);
      break;
    case NodeKind::kFloatLit:
      s += fmt::format(" {}", n.fval);
      break;
    case NodeKind::kBoolLit:
      s += n.ival ? " true" : " false";
      break;
    case NodeKind::kStringLit:
      s += fmt::format(" \"{}\"", n.text);
      break;
    case NodeKind::kPtrType:
      s += n.ival ? " [*]" : " *";
      break;
    default:
      if (!n.text.empty()) s += " " + n.text;
  }
  static const std::pair<uint32_t, const char*> kFlags[] = {
      {kFlagConst, "const"},   {kFlagVar, "var"},       {kFlagParam, "param"},
      {kFlagComptime, "ct"},   {kFlagExport, "export"}, {kFlagExtern, "extern"},
      {kFlagInline, "inline"}, {kFlagTask, "task"},     {kFlagElse, "else"}};
  for (const auto& [f, name] : kFlags)
    if (n.has(f)) s += fmt::format(" :{}", name);
  for (const std::string& name : n.names) s += " |" + name + "|";
  for (const NodePtr& k : n.kids) s += " " + (k ? Dump(*k) : std::string("_"));
  return s + ")";
}

}  // namespace tessera::csl
